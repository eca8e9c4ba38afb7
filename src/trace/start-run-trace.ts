import { UsageError } from '../errors.js';
import { plainRunTrace, setRunTrace, type RunTrace } from './run-trace.js';
import { parseTraceParent, validTraceState } from './trace-context.js';

export interface RunTraceInput {
  /** `--trace-parent`. */
  traceParent?: string;
  env: NodeJS.ProcessEnv;
  /** The span name of the command itself (`toolrun exec`). */
  commandName: string;
}

/**
 * Sets up the running command's trace (SPEC §23): a caller's trace continued (`--trace-parent`, else
 * `TRACEPARENT` and `TRACESTATE` in the environment, as OpenTelemetry's "Environment Variables as
 * Context Propagation Carriers" names them and CI systems set them), else a new one. Resolves with
 * what ends it (the export of recorded spans, and a warning when that failed).
 */
export async function startRunTrace(input: RunTraceInput): Promise<{ trace: RunTrace; finish: (exitCode: number) => Promise<string | undefined> }> {
  const flag = input.traceParent;
  const fromEnv = flag === undefined ? input.env.TRACEPARENT?.trim() || undefined : undefined;
  const given = flag ?? fromEnv;
  let caller: { traceId: string; parentId: string; flags: string } | undefined;
  if (given !== undefined) {
    const parsed = parseTraceParent(given);
    const where = flag !== undefined ? '--trace-parent' : 'TRACEPARENT';
    if ('invalid' in parsed) throw new UsageError(`${where} '${oneLine(given)}' is not a W3C traceparent: ${parsed.invalid}; give 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>, or unset it`);
    caller = parsed;
  }
  const source: RunTrace['source'] = flag !== undefined ? '--trace-parent' : fromEnv !== undefined ? 'TRACEPARENT' : 'new';
  // A tracestate belongs to the traceparent it came with: TRACESTATE only beside TRACEPARENT.
  const tracestate = source === 'TRACEPARENT' ? validTraceState(input.env.TRACESTATE) : undefined;
  const trace = plainRunTrace(caller, tracestate, source);
  setRunTrace(trace);
  return {
    trace,
    finish: async (exitCode) => {
      if (!trace.recorder) return undefined;
      return trace.recorder.finish(exitCode);
    },
  };
}

function oneLine(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
