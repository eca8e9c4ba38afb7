import { UsageError } from '../errors.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { plainRunTrace, setRunTrace, type RunTrace } from './run-trace.js';
import { parseTraceParent, validTraceState } from './trace-context.js';

export interface RunTraceInput {
  /** `--trace-parent`. */
  traceParent?: string;
  /** `--otlp`. */
  otlp?: string;
  env: NodeJS.ProcessEnv;
  /** The span name of the command itself (`toolrun exec`). */
  commandName: string;
  /** Says what of the environment was ignored (a flag's bad value is a UsageError instead). */
  warn: (message: string) => void;
}

/**
 * Sets up the running command's trace (SPEC §23): a caller's trace continued (`--trace-parent`, else
 * `TRACEPARENT` and `TRACESTATE` in the environment, as OpenTelemetry's "Environment Variables as
 * Context Propagation Carriers" names them and CI systems set them), else a new one; with `--otlp URL`
 * (or `OTEL_EXPORTER_OTLP_ENDPOINT`) the command's spans are recorded by the OpenTelemetry SDK, loaded
 * only then. Resolves with what ends it: the export of what is left, within OTLP_FLUSH_TIMEOUT_MS,
 * and a warning when that failed.
 */
export async function startRunTrace(input: RunTraceInput): Promise<{ trace: RunTrace; finish: (exitCode: number) => Promise<string | undefined> }> {
  const flag = input.traceParent;
  const fromEnv = flag === undefined ? input.env.TRACEPARENT?.trim() || undefined : undefined;
  const given = flag ?? fromEnv;
  let caller: { traceId: string; parentId: string; flags: string } | undefined;
  if (given !== undefined) {
    const parsed = parseTraceParent(given);
    const where = flag !== undefined ? '--trace-parent' : 'TRACEPARENT';
    const problem = 'invalid' in parsed ? `${where} '${oneLine(given)}' is not a W3C traceparent: ${parsed.invalid}` : undefined;
    if (problem && flag !== undefined) throw new UsageError(`${problem}; give 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`);
    // From the environment (a CI system's, a parent process's), as W3C Trace Context asks of a traceparent
    // that cannot be parsed ("the vendor creates a new traceparent", trace-context §4.3.3 / processing
    // model): a new trace, said once; the command runs, its exit code its own.
    if (problem) input.warn(`${problem}: a new trace is started (unset or fix TRACEPARENT)`);
    else caller = parsed as { traceId: string; parentId: string; flags: string };
  }
  const source: RunTrace['source'] = flag !== undefined ? '--trace-parent' : caller !== undefined ? 'TRACEPARENT' : 'new';
  // A tracestate belongs to the traceparent it came with: TRACESTATE only beside TRACEPARENT.
  const tracestate = source === 'TRACEPARENT' ? validTraceState(input.env.TRACESTATE) : undefined;
  let url: string | undefined;
  try {
    url = otlpTracesUrl(input.otlp, input.env);
  } catch (error) {
    // --otlp's bad value is the user's to fix now; the environment's only costs the export.
    if (input.otlp !== undefined || !(error instanceof UsageError)) throw error;
    input.warn(`${error.message.replace(/; give .*$|; toolrun exports .*$/, '')}: spans are not exported`);
  }
  let trace = plainRunTrace(caller, tracestate, source);
  if (url) {
    const { startOtlpRecorder } = await import('./otlp-export.js');
    const recorder = await startOtlpRecorder({ url, headers: otlpHeaders(input.env), caller, tracestate, commandName: input.commandName });
    trace = { traceId: recorder.traceId, parentId: recorder.rootSpanId, flags: recorder.flags, tracestate, source, recorder };
  }
  setRunTrace(trace);
  return {
    trace,
    finish: async (exitCode) => {
      if (!trace.recorder) return undefined;
      return trace.recorder.finish(exitCode);
    },
  };
}

/**
 * Where spans go: `--otlp URL` or `OTEL_EXPORTER_OTLP_ENDPOINT` is a base URL, `/v1/traces` appended
 * (OpenTelemetry "OTLP Exporter Configuration": the signal path is added to the base endpoint), unless
 * it already ends so; `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used as it is. None: no export.
 */
export function otlpTracesUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const tracesEnv = flag === undefined ? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || undefined : undefined;
  const base = flag ?? (tracesEnv ? undefined : env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined);
  const given = tracesEnv ?? base;
  if (given === undefined) return undefined;
  const where = flag !== undefined ? '--otlp' : tracesEnv ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`${where} '${oneLine(maskSecrets(given))}' is not a URL; give the collector's OTLP/HTTP endpoint, e.g. http://localhost:4318`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${where} '${oneLine(maskSecrets(given))}' is not an http(s) URL; toolrun exports OTLP over HTTP, e.g. http://localhost:4318`);
  if (tracesEnv || /\/v1\/traces\/?$/.test(url.pathname)) return url.href;
  return new URL(`${url.pathname.replace(/\/+$/, '')}/v1/traces`, url).href;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` (and its traces variant, which wins): `key=value,…`, values URL-encoded. */
function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const list of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS]) {
    for (const pair of (list ?? '').split(',')) {
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      try {
        headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        // A malformed pair is skipped, as the SDK's own parser does.
      }
    }
  }
  return headers;
}

function oneLine(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
