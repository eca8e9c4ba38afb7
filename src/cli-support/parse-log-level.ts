import { InvalidArgumentError } from 'commander';
import { LOG_LEVELS, type LogLevel } from '../protocol/log-levels.js';

export { LOG_LEVELS };

/** Commander argParser for --log-level: one of the RFC 5424 levels MCP logging uses. */
export function parseLogLevel(value: string): LogLevel {
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new InvalidArgumentError(`unknown log level '${value}'; use ${LOG_LEVELS.join(', ')}.`);
  return value as LogLevel;
}

/** Whether a log message at `level` is at least as severe as `threshold` (an unknown level is shown). */
export function isAtLeast(level: unknown, threshold: LogLevel): boolean {
  const index = LOG_LEVELS.indexOf(level as LogLevel);
  return index === -1 || index >= LOG_LEVELS.indexOf(threshold);
}
