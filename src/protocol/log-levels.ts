// Its own file: --log-level is parsed at every command's startup, which must not load the MCP client.
/** RFC 5424 levels of `notifications/message`, least severe first (`--log-level`). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
