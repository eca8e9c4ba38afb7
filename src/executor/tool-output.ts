import { ToolrunError } from '../errors.js';

/**
 * What a tool may return when it has both a value for people and a raw protocol result (MCP):
 * the envelope's `result` is `value`, or `raw` with `--raw`.
 */
export class ToolOutput {
  constructor(
    readonly value: unknown,
    readonly raw: unknown,
  ) {}
}

/** A tool that reported failure itself (an MCP `isError` result): its own text, and the raw result. */
export class ToolReportedError extends ToolrunError {
  constructor(
    message: string,
    readonly raw: unknown,
  ) {
    super('tool_error', message);
    this.name = 'ToolReportedError';
  }
}
