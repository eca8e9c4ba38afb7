import { oneLine } from './escape-controls.js';
import { toJson } from './terminal.js';

/** Levels of `notifications/message` (RFC 5424) at which a log line is a warning or worse. */
const WARNING_LEVELS = new Set(['warning', 'error', 'critical', 'alert', 'emergency']);

/** `[server] info (logger): message` for a server's log notification, on one line; `data` may be any JSON. */
export function formatServerLog(server: string, params: Record<string, unknown>): { line: string; isWarning: boolean } {
  const level = typeof params.level === 'string' ? params.level : 'info';
  const logger = typeof params.logger === 'string' ? ` (${params.logger})` : '';
  const data = typeof params.data === 'string' ? params.data : toJson(params.data ?? null, 0);
  return { line: oneLine(`[${server}] ${level}${logger}: ${data}`), isWarning: WARNING_LEVELS.has(level) };
}
