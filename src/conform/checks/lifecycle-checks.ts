import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION_CODE } from '../../protocol/protocol-era.js';
import type { ConformCheck, ConformContext } from '../check-types.js';
import type { CheckEvidence } from '../conform-types.js';
import { initializeParams } from '../handshake.js';
import { answerFrame as frameOf, describeAnswer } from './findings.js';

/** A revision no server speaks: what it must do with one is the check. */
export const UNSUPPORTED_VERSION = '1999-01-01';
/** Where a 2026-07-28 result names its server (DiscoverResult `_meta`). */
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
const KNOWN_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** The handshake's answer has what its revision requires (the run did it; this judges it). */
export const handshakeCheck: ConformCheck = {
  id: 'lifecycle.handshake',
  title: 'The handshake is answered with a version, capabilities and server info',
  section: 'basic/lifecycle#initialization',
  async run({ handshake, channel }) {
    const { result, response } = handshake;
    const evidence: CheckEvidence[] = [];
    const problem = (detail: string, path: string) => evidence.push({ detail, path, frame: response?.message, direction: 'received', line: response?.line });
    if (handshake.method === 'initialize') {
      if (typeof result.protocolVersion !== 'string') problem('the initialize result has no protocolVersion string', 'result.protocolVersion');
      else if (!KNOWN_VERSIONS.includes(result.protocolVersion)) problem(`protocolVersion ${JSON.stringify(result.protocolVersion)} is no published revision`, 'result.protocolVersion');
    } else if (!Array.isArray(result.supportedVersions) || !result.supportedVersions.includes(channel.protocolVersion)) {
      problem(`supportedVersions does not list ${channel.protocolVersion}`, 'result.supportedVersions');
    }
    if (!isObject(result.capabilities)) problem('no capabilities object', 'result.capabilities');
    // 2026-07-28 moved serverInfo into the result's _meta, where it is optional; initialize requires it.
    const modern = handshake.method === 'server/discover';
    const info = (modern ? (result._meta as Record<string, unknown> | undefined)?.[SERVER_INFO_META_KEY] : result.serverInfo) as { name?: unknown; version?: unknown } | undefined;
    const named = isObject(info) && typeof info.name === 'string' && typeof info.version === 'string';
    if (!named && !(modern && info === undefined)) problem('serverInfo needs a name and a version string', modern ? `result._meta["${SERVER_INFO_META_KEY}"]` : 'result.serverInfo');
    if (evidence.length > 0) return { verdict: 'fail', message: `the ${handshake.method} result is incomplete: ${evidence[0]!.detail}`, evidence };
    return { verdict: 'pass', message: `${handshake.method} answered: MCP ${channel.protocolVersion}, ${named ? `${String(info.name)} ${String(info.version)}` : 'no serverInfo'}` };
  },
};

/**
 * Asked in a revision it does not speak, a server answers with one it does: in the 2025 family the
 * initialize result carries another version (a fresh connection: a session is initialized once);
 * in 2026-07-28 any request (a list method here) gets UnsupportedProtocolVersionError (-32022) listing `supported`.
 */
export const versionNegotiationCheck: ConformCheck = {
  id: 'lifecycle.version-negotiation',
  title: 'An unsupported protocol version is answered with a supported one',
  section: 'basic/lifecycle#version-negotiation',
  async run(context) {
    return context.channel.era === 'modern' ? negotiateModern(context) : negotiateLegacy(context);
  },
};

async function negotiateLegacy(context: ConformContext) {
  const fresh = await context.openFreshChannel();
  fresh.era = 'legacy';
  fresh.protocolVersion = UNSUPPORTED_VERSION;
  const answer = await fresh.request('initialize', initializeParams(UNSUPPORTED_VERSION));
  const frame = frameOf(answer);
  const evidence = frame ? [{ detail: `initialize with protocolVersion ${UNSUPPORTED_VERSION}`, frame: frame.message, direction: 'received' as const, line: frame.line }] : [];
  if (answer.kind !== 'result')
    return { verdict: 'fail' as const, message: `initialize with ${UNSUPPORTED_VERSION} got ${describeAnswer(answer)}; the server MUST answer with a version it supports`, evidence };
  const offered = answer.result.protocolVersion;
  if (offered === UNSUPPORTED_VERSION)
    return { verdict: 'fail' as const, message: `the server accepted ${UNSUPPORTED_VERSION}, a revision that does not exist`, evidence: [{ ...evidence[0]!, path: 'result.protocolVersion' }] };
  if (typeof offered !== 'string' || !KNOWN_VERSIONS.includes(offered))
    return {
      verdict: 'fail' as const,
      message: `the server answered with protocolVersion ${JSON.stringify(offered)}, which is no published revision`,
      evidence: [{ ...evidence[0]!, path: 'result.protocolVersion' }],
    };
  return { verdict: 'pass' as const, message: `asked for ${UNSUPPORTED_VERSION}, the server offered ${offered}` };
}

async function negotiateModern(context: ConformContext) {
  // An ordinary request of a capability it advertises: server/discover itself exists to tell the
  // versions, and a server may answer it whatever version it is asked in.
  const listing = (['tools', 'resources', 'prompts'] as const).find((capability) => isObject(context.capabilities[capability]));
  const method = listing ? `${listing}/list` : 'server/discover';
  // On a fresh start too, as in the 2025 family: what a server says to its first request is what
  // every new client meets (the v2 SDK's stdio server stops checking once a version was used).
  const fresh = await context.openFreshChannel();
  fresh.era = 'modern';
  fresh.protocolVersion = context.channel.protocolVersion;
  const answer = await fresh.request(method, {}, { protocolVersion: UNSUPPORTED_VERSION });
  const frame = frameOf(answer);
  const evidence = frame ? [{ detail: `${method} with protocolVersion ${UNSUPPORTED_VERSION}`, frame: frame.message, direction: 'received' as const, line: frame.line }] : [];
  if (!listing && answer.kind === 'result')
    return { verdict: 'skip' as const, message: `the server advertises no list method to ask in ${UNSUPPORTED_VERSION}, and server/discover may answer in any version` };
  if (answer.kind !== 'error' || answer.error.code !== UNSUPPORTED_PROTOCOL_VERSION_CODE) {
    return {
      verdict: 'fail' as const,
      message: `${method} in MCP ${UNSUPPORTED_VERSION} got ${describeAnswer(answer)}; the server MUST answer ${UNSUPPORTED_PROTOCOL_VERSION_CODE} (UnsupportedProtocolVersionError)`,
      evidence,
    };
  }
  const supported = (answer.error.data as { supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported) || !supported.includes(context.channel.protocolVersion)) {
    return { verdict: 'fail' as const, message: `the -32022 error's data.supported does not list ${context.channel.protocolVersion}`, evidence: [{ ...evidence[0]!, path: 'error.data.supported' }] };
  }
  return { verdict: 'pass' as const, message: `${method} in ${UNSUPPORTED_VERSION} was answered -32022 listing ${supported.join(', ')}` };
}

/**
 * 2025 family: the server sends nothing but pings and logs before `notifications/initialized`
 * (lifecycle: SHOULD NOT), and never answers that notification (JSON-RPC: notifications get no response).
 */
export const initializedCheck: ConformCheck = {
  id: 'lifecycle.initialized',
  title: 'initialized is accepted, and nothing but ping and logging comes before it',
  section: 'basic/lifecycle#initialization',
  async run({ channel, handshake }) {
    if (handshake.method !== 'initialize') return { verdict: 'skip', message: 'MCP 2026-07-28 has no initialize handshake (server/discover)' };
    const responseIndex = handshake.response?.index ?? 0;
    // Give an answer to the notification a moment to arrive: ping is answered after it, in order.
    await channel.request('ping', {}, { timeoutMs: 2000 });
    const early = channel.frames.filter(
      (frame) =>
        frame.direction === 'received' &&
        frame.index > responseIndex &&
        isServerRequest(frame.message) &&
        !['ping'].includes(methodOf(frame.message)) &&
        frame.index < firstSentAfter(channel.frames, responseIndex),
    );
    const notified = channel.frames.find((frame) => frame.direction === 'sent' && methodOf(frame.message) === 'notifications/initialized')?.index ?? responseIndex;
    const answered = channel.frames.filter((frame) => frame.index > notified && frame.direction === 'received' && isResponse(frame.message) && (frame.message as { id?: unknown }).id === null);
    if (answered.length > 0)
      return {
        verdict: 'fail',
        message: 'the server answered notifications/initialized (a notification gets no response)',
        evidence: answered.slice(0, 3).map((frame) => ({ detail: 'a response with id null', frame: frame.message, direction: 'received' as const, line: frame.line })),
      };
    if (early.length > 0)
      return {
        verdict: 'warn',
        message: `the server sent ${methodOf(early[0]!.message)} before notifications/initialized (SHOULD NOT)`,
        evidence: early.slice(0, 3).map((frame) => ({ detail: 'a request before initialized', frame: frame.message, direction: 'received' as const, line: frame.line })),
      };
    return { verdict: 'pass', message: 'notifications/initialized accepted without a response; nothing sent ahead of it' };
  },
};

function firstSentAfter(frames: readonly { index: number; direction: string }[], index: number): number {
  return frames.find((frame) => frame.index > index && frame.direction === 'sent')?.index ?? Number.MAX_SAFE_INTEGER;
}

function isServerRequest(message: unknown): boolean {
  return isObject(message) && typeof message.method === 'string' && message.id !== undefined;
}

function isResponse(message: unknown): boolean {
  return isObject(message) && message.method === undefined && ('result' in message || 'error' in message);
}

function methodOf(message: unknown): string {
  return isObject(message) && typeof message.method === 'string' ? message.method : '?';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
