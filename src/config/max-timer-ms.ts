/**
 * The longest delay a Node timer can wait: setTimeout stores it as a signed 32-bit integer, and
 * anything larger (2^31 ms and up) fires at once, with only a warning. A timeout or delay above it
 * would end every call immediately, so toolrun refuses such settings rather than cap them silently.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** The limit as messages state it. */
export const MAX_TIMER_TEXT = `${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can wait)`;
