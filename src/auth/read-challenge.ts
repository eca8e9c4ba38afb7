import { AuthFlowError } from './auth-errors.js';
import { authRequestTimeoutMs } from './auth-request-limits.js';
import { parseTokenChallenge } from './www-authenticate.js';
import { remoteFetch } from '../http/remote-fetch.js';
import { eraOfVersion, LATEST_MODERN_VERSION, modernEnvelope } from '../protocol/protocol-era.js';
import { readVersion } from '../version.js';

/** What a login learns from the server before discovery: where it starts, and the scopes to ask for. */
export interface Challenge {
  /** The server answered 401: it does want a token. */
  challenged: boolean;
  /** Its challenge offered the DPoP scheme. */
  offersDpop?: boolean;
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** The MCP endpoint a login probes, with the entry's headers and its protocol choice (`auto`, or a pinned revision). */
export interface ChallengeTarget {
  url: string;
  headers: Record<string, string>;
  protocol?: { setting: string };
}

/** The revision of the `initialize` probe when the entry pins none: a 2025 server answers it. */
const CHALLENGE_PROTOCOL = '2025-11-25';

/**
 * The server's 401 challenge (RFC 9728's `resource_metadata`, and `scope`): where discovery starts.
 * It is read from a request that needs authorization (SPEC §21): a server may let its handshake
 * through and challenge only what follows, with the scope its tools need.
 *
 * The handshake follows the server's era (SPEC §10). The 2025 family's `initialize`, then
 * `tools/list` in the session it opened (ended after). A server that speaks only 2026-07-28
 * refuses `initialize` with a 400 ("Legacy client → Modern server … rejected … with `400 Bad
 * Request`": MCP 2026-07-28 basic/versioning § Compatibility Matrix), and an entry that pins
 * 2026-07-28 is not sent one at all: then `server/discover` (what every connection sends first,
 * mcp/connect/discover-probe.ts), and when that goes through without a token, a stateless `tools/list`.
 * An entry that pins a 2025 revision gets `initialize` with it, and no `server/discover`.
 */
export async function readChallenge(target: ChallengeTarget, signal: AbortSignal | undefined): Promise<Challenge> {
  // No answer's body is read (a server that lets the request through may answer with a stream): only the timeout applies.
  const timeout = AbortSignal.timeout(authRequestTimeoutMs());
  const within = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const send: typeof fetch = (input, init) =>
    remoteFetch(input, { ...init, signal: within }).catch((error: unknown) => {
      if (timeout.aborted) throw new AuthFlowError(`${new URL(target.url).origin} did not answer within ${authRequestTimeoutMs()} ms (an OAuth request; --timeout lowers the limit)`, { cause: error });
      throw error;
    });
  const pinned = target.protocol && target.protocol.setting !== 'auto' ? target.protocol.setting : undefined;
  if (pinned && eraOfVersion(pinned) === 'modern') return challengeOf(await modernChallenge(target, send));
  const legacy = await legacyChallenge(target, pinned ?? CHALLENGE_PROTOCOL, send);
  if (pinned || !legacy.initializeRefused) return challengeOf(legacy.response);
  return challengeOf(await modernChallenge(target, send));
}

/** `initialize`, and when it goes through, `tools/list` in its session. `initializeRefused`: a 4xx other than a challenge. */
async function legacyChallenge(target: ChallengeTarget, version: string, send: typeof fetch): Promise<{ response: Response; initializeRefused: boolean }> {
  const { url, headers } = target;
  const post = async (message: object, extra: Record<string, string> = {}) => {
    const response = await send(url, {
      method: 'POST',
      headers: { ...headers, ...extra, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    });
    await response.body?.cancel().catch(() => {});
    return response;
  };
  const initialize = await post({ id: 'toolrun-auth', method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'toolrun', version: '0' } } });
  if (!initialize.ok) return { response: initialize, initializeRefused: initialize.status >= 400 && initialize.status < 500 && initialize.status !== 401 };
  const session = initialize.headers.get('mcp-session-id');
  const inSession: Record<string, string> = { 'mcp-protocol-version': version, ...(session && { 'mcp-session-id': session }) };
  await post({ method: 'notifications/initialized' }, inSession).catch(() => undefined);
  const response = await post({ id: 'toolrun-auth-tools', method: 'tools/list', params: {} }, inSession);
  if (session)
    await send(url, { method: 'DELETE', headers: { ...headers, ...inSession } })
      .then((answer) => answer.body?.cancel())
      .catch(() => {});
  return { response, initializeRefused: false };
}

/**
 * `server/discover` with the 2026-07-28 headers and `_meta` envelope, as a connection's probe sends
 * it; when the server answers it without a token, a stateless `tools/list` the same way. The answer
 * that came last is the one a challenge is read from.
 */
async function modernChallenge(target: ChallengeTarget, send: typeof fetch): Promise<Response> {
  const post = async (method: string) => {
    const response = await send(target.url, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_MODERN_VERSION, 'mcp-method': method },
      body: JSON.stringify({ jsonrpc: '2.0', id: `toolrun-auth-${method}`, method, params: { _meta: modernEnvelope(LATEST_MODERN_VERSION, readVersion()) } }),
    });
    await response.body?.cancel().catch(() => {});
    return response;
  };
  const discover = await post('server/discover');
  return discover.ok ? post('tools/list') : discover;
}

function challengeOf(response: Response): Challenge {
  // No challenge (an older server, or one that lets every request through): discovery falls back to the well-known URLs.
  if (response.status !== 401) return { challenged: false };
  const challenge = parseTokenChallenge(response.headers.get('www-authenticate'));
  const named = challenge?.params.resource_metadata;
  return { challenged: true, resourceMetadataUrl: named && URL.canParse(named) ? new URL(named) : undefined, scope: challenge?.params.scope, offersDpop: challenge?.offersDpop };
}
