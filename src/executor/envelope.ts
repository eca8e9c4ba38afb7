import type { ErrorKind } from '../errors.js';
import type { ToolSource } from '../registry/tool-types.js';

/** Fields every envelope has, success or failure (seed 004), plus toolrun's additions. */
interface EnvelopeBase {
  tool_name: string;
  execution_time_ms: number;
  source?: ToolSource;
  server?: string;
}

export interface SuccessEnvelope extends EnvelopeBase {
  success: true;
  result: unknown;
  /** `exec -o DIR`: the files the result's binary content was written to. */
  files?: string[];
}

export interface FailureEnvelope extends EnvelopeBase {
  success: false;
  error: string;
  error_kind: ErrorKind;
  /** With `raw`: the tool's own error result (an MCP result with isError: true). */
  result?: unknown;
  /** The server died during the call: the last lines of its stderr (the evidence). */
  server_stderr?: string[];
}

/** What `executor.execute()` returns for every outcome; it never throws for a tool's failure. */
export type ToolEnvelope = SuccessEnvelope | FailureEnvelope;

export function elapsedMs(startedAt: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - startedAt) / 10_000) / 100;
}
