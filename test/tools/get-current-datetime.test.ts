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

  it('agrees with Intl for the local zone', async () => {
    const local = await getCurrentDatetime({}, instant);
    expect(local.utc).toBe(instant.toISOString());
    expect(local.utc_offset).toMatch(/^[+-]\d{2}:\d{2}$/);
  });
});
