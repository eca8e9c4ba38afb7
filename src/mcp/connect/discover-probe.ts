import { readVersion } from '../../version.js';
import type { NegotiatingTransport } from '../transports/negotiating-transport.js';
import { LATEST_MODERN_VERSION, LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, modernEnvelope, UNSUPPORTED_PROTOCOL_VERSION_CODE } from '../../protocol/protocol-era.js';
import { MessageTooLargeError } from '../../http/capped-body.js';
import { remoteFetch } from '../../http/remote-fetch.js';
import { httpTarget, withTraceContext } from '../../trace/run-trace.js';

/** What a server made of `server/discover`, and so which era it speaks. */
export type ProbeOutcome =
  | { kind: 'modern'; version: string; discover: Record<string, unknown>; how: string }
  | { kind: 'legacy'; how: string }
  /** A modern server that speaks no modern revision toolrun does. */
  | { kind: 'unsupported'; reason: string };

/**
 * How long a stdio server may stay silent on `server/discover` before it is taken for a legacy
 * server (the spec allows legacy servers not to answer an unknown request before `initialize`).
 * Not a restart: the same process then gets `initialize`, and a late answer is dropped.
 */
export const PROBE_SILENCE_MS = 3000;

/**
 * The probe over stdio: one request on the transport the client will use. The silence is counted
 * from `serverRunning` (when an npx-style runner has installed the package and started the server),
 * as the connect timeout is: a cold install is not a silent server (issue #19 item 5). The request
 * itself goes at once; the pipe holds it until the server reads it.
 */
export async function probeStdio(transport: NegotiatingTransport, signal: AbortSignal, waitMs: number, serverRunning: Promise<void> = Promise.resolve()): Promise<ProbeOutcome> {
  const silence = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  void serverRunning.then(() => {
    if (!settled) timer = setTimeout(() => silence.abort(), waitMs);
  });
  try {
    const ask = (version: string) => transport.request('server/discover', { _meta: modernEnvelope(version, readVersion()) }, AbortSignal.any([signal, silence.signal]));
    const first = await ask(LATEST_MODERN_VERSION);
    const retry = retryVersionOf(first);
    return retry ? judgeRetriedAnswer(await ask(retry), retry) : judgeDiscoverAnswer(first);
  } catch (error) {
    if (signal.aborted || !silence.signal.aborted) throw error;
    return { kind: 'legacy', how: `server/discover unanswered after ${waitMs} ms, then initialize` };
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/**
 * The probe over Streamable HTTP: a POST of `server/discover` with the 2026-07-28 headers. A legacy
 * server refuses it (4xx: no session, or an unknown method); a network failure is thrown, for the
 * connection attempt to classify as it does any other.
 */
export async function probeHttp(url: URL, headers: Record<string, string>, signal: AbortSignal, fetchFn: typeof fetch = remoteFetch): Promise<ProbeOutcome> {
  const ask = async (version: string): Promise<{ message: unknown; status: number }> => {
    const traced = withTraceContext(
      { jsonrpc: '2.0', id: 'toolrun-discover-http', method: 'server/discover', params: { _meta: modernEnvelope(version, readVersion()) } },
      { protocolVersion: version, network: httpTarget(url) },
    );
    const body = traced.message;
    const response = await fetchFn(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version, 'mcp-method': 'server/discover' },
      body: JSON.stringify(body),
      signal,
    });
    const message = await readJsonRpcAnswer(response).catch((error: unknown) => {
      traced.span?.end({ error: { code: 'transport_error', message: String((error as Error)?.message ?? error) } });
      throw error;
    });
    if (!message) await response.body?.cancel().catch(() => {});
    traced.span?.end(message ?? { error: { code: String(response.status), message: `HTTP ${response.status}` } });
    return { message, status: response.status };
  };
  let answer = await ask(LATEST_MODERN_VERSION);
  const retry = retryVersionOf(answer.message);
  if (retry) {
    answer = await ask(retry);
    if (answer.message) return judgeRetriedAnswer(answer.message, retry);
  }
  if (!answer.message) return { kind: 'legacy', how: `server/discover refused with HTTP ${answer.status}, then initialize` };
  return judgeDiscoverAnswer(answer.message);
}

/**
 * SEP-2575: a -32022 refusal (UnsupportedProtocolVersionError) whose `data.supported` lists a modern
 * revision toolrun speaks is asked once more with that revision, the header and `_meta` both set to
 * it. The first refusal can be a transient one (a server mid-upgrade, a proxy's version check): the
 * same revision is retried too.
 */
export function retryVersionOf(message: unknown): string | undefined {
  const error = (message as { error?: { code?: unknown; data?: { supported?: unknown } } } | undefined)?.error;
  if (error?.code !== UNSUPPORTED_PROTOCOL_VERSION_CODE || !Array.isArray(error.data?.supported)) return undefined;
  const supported = error.data.supported.map(String);
  return MODERN_PROTOCOL_VERSIONS.find((candidate) => supported.includes(candidate));
}

/** The answer to the one retry: refused again, the server cannot be spoken to in the modern era. */
function judgeRetriedAnswer(message: unknown, version: string): ProbeOutcome {
  if (retryVersionOf(message)) return { kind: 'unsupported', reason: `the server refused MCP ${version} twice (-32022) though it lists it as supported` };
  const outcome = judgeDiscoverAnswer(message);
  return outcome.kind === 'modern'
    ? { ...outcome, how: `server/discover refused ${LATEST_MODERN_VERSION} (-32022), asked again with ${version}: ${outcome.how.replace(/^server\/discover /, '')}` }
    : outcome;
}

/** The era a `server/discover` answer means (SPEC §10; the spec's backward-compatibility rules). */
export function judgeDiscoverAnswer(message: unknown): ProbeOutcome {
  const { result, error } = message as { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown; data?: { supported?: unknown } } };
  if (result && Array.isArray(result.supportedVersions)) {
    const offered = result.supportedVersions.filter((version): version is string => typeof version === 'string');
    const version = MODERN_PROTOCOL_VERSIONS.find((candidate) => offered.includes(candidate));
    if (version) return { kind: 'modern', version, discover: result, how: `server/discover answered, offering ${offered.join(', ')}` };
    return { kind: 'unsupported', reason: `the server speaks MCP ${offered.join(', ') || '(no version)'}; toolrun speaks ${MODERN_PROTOCOL_VERSIONS.join(', ')} and the 2025-11-25 family` };
  }
  if (error?.code === UNSUPPORTED_PROTOCOL_VERSION_CODE && Array.isArray(error.data?.supported)) {
    const supported = error.data.supported.map(String);
    const version = MODERN_PROTOCOL_VERSIONS.find((candidate) => supported.includes(candidate));
    if (version) return { kind: 'unsupported', reason: `the server refused ${LATEST_MODERN_VERSION} yet lists it as supported` };
    // A server of both eras that does not speak this modern revision: the 2025 family's handshake it lists.
    const legacy = LEGACY_PROTOCOL_VERSIONS.find((candidate) => supported.includes(candidate));
    if (legacy) return { kind: 'legacy', how: `server/discover refused (-32022, the server speaks ${supported.join(', ')}), then initialize` };
    return { kind: 'unsupported', reason: `the server speaks only MCP ${supported.join(', ')}; toolrun speaks ${MODERN_PROTOCOL_VERSIONS.join(', ')} and the 2025-11-25 family` };
  }
  if (error) return { kind: 'legacy', how: `server/discover refused (${String(error.code)} ${String(error.message ?? '')}), then initialize`.replace(' )', ')') };
  return { kind: 'legacy', how: 'server/discover answered without supportedVersions, then initialize' };
}

/**
 * A refusal of `initialize` that names the modern revisions the server speaks: a modern-only server
 * whose discover answer came too late (a slow start). The caller switches to the modern era.
 */
export function modernVersionsOfRefusal(error: unknown): string[] | undefined {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { supported?: unknown } };
  if (code !== UNSUPPORTED_PROTOCOL_VERSION_CODE || !Array.isArray(data?.supported)) return undefined;
  const supported = data.supported.map(String);
  return supported.some((version) => (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version)) ? supported : undefined;
}

/** The JSON-RPC message of an HTTP answer (a JSON body, or the first response event of an SSE stream). */
async function readJsonRpcAnswer(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    // A body over the message limit is the answer's failure, not a legacy server's refusal.
    const parsed = (await response.json().catch((error: unknown) => rethrowTooLarge(error))) as { jsonrpc?: unknown } | undefined;
    return parsed?.jsonrpc === '2.0' ? parsed : undefined;
  }
  if (!type.includes('text/event-stream') || !response.ok || !response.body) return undefined;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffered += value;
      for (const line of buffered.split('\n').slice(0, -1)) {
        if (!line.startsWith('data:')) continue;
        const parsed = parseJson(line.slice(5)) as { id?: unknown } | undefined;
        if (parsed?.id === 'toolrun-discover-http') return parsed;
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function rethrowTooLarge(error: unknown): undefined {
  if (error instanceof MessageTooLargeError) throw error;
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
