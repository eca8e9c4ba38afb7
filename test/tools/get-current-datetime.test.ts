import { describe, expect, it } from 'vitest';
import { getCurrentDatetime } from '../../src/tools/get-current-datetime.js';

describe('get_current_datetime', () => {
  const instant = new Date('2026-03-29T01:30:00.250Z');

  it('formats an instant in a named zone, across a DST change', async () => {
    expect(await getCurrentDatetime({ timezone: 'Europe/Paris' }, instant)).toEqual({
      datetime: '2026-03-29T03:30:00.250+02:00',
      timezone: 'Europe/Paris',
      utc_offset: '+02:00',
      utc: '2026-03-29T01:30:00.250Z',
      unix_ms: instant.getTime(),
      formatted: 'Sunday, March 29, 2026 at 3:30:00 AM',
    });
  });

  it('uses Z for UTC and handles negative offsets', async () => {
    expect((await getCurrentDatetime({ timezone: 'UTC' }, instant)).datetime).toBe('2026-03-29T01:30:00.250Z');
    expect((await getCurrentDatetime({ timezone: 'America/St_Johns' }, instant)).utc_offset).toBe('-02:30');
  });

  it('agrees with Intl for the local zone (TZ fixed for the test)', async () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['America/St_Johns', 'Asia/Kolkata', 'UTC']) {
        process.env.TZ = zone;
        const local = await getCurrentDatetime({}, instant);
        const expected = await getCurrentDatetime({ timezone: zone }, instant);
        expect(local.timezone).toBe(zone);
        expect(local.utc).toBe(instant.toISOString());
        expect(local.utc_offset).toBe(expected.utc_offset);
        // Intl, asked directly, gives the same offset for the same instant and zone.
        const intlOffset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')!.value;
        expect(intlOffset === 'GMT' ? '+00:00' : intlOffset.replace('GMT', '')).toBe(local.utc_offset);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
