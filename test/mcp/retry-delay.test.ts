import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS } from '../../src/config/max-timer-ms.js';
import { retryDelayMs } from '../../src/mcp/connect/open-session.js';

describe('retryDelayMs', () => {
  it('0, then the base delay, doubling', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, { attempts: 4, baseDelayMs: 2000 }))).toEqual([0, 2000, 4000, 8000]);
  });

  it('doubling stops at the longest a timer can wait (issue #19 item 15: beyond it Node retries at once)', () => {
    expect(retryDelayMs(3, { attempts: 3, baseDelayMs: 2 ** 30 })).toBe(MAX_TIMER_MS);
    expect(retryDelayMs(40, { attempts: 40, baseDelayMs: MAX_TIMER_MS })).toBe(MAX_TIMER_MS);
  });
});
