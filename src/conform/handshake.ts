import { readVersion } from '../version.js';
import { eraOfVersion, LATEST_MODERN_VERSION, LEGACY_PROTOCOL_VERSIONS, type ProtocolSetting } from '../protocol/protocol-era.js';
import { judgeDiscoverAnswer, PROBE_SILENCE_MS } from '../mcp/connect/discover-probe.js';
import type { ConformContext } from './check-types.js';
import type { ProbeAnswer, ProbeChannel } from './probe-types.js';
import { describeAnswer } from './checks/findings.js';

export const LATEST_LEGACY_VERSION = LEGACY_PROTOCOL_VERSIONS[0];

/** The handshake as the checks see it, or why there was none. */
export type HandshakeOutcome =
  | ({ ok: true; capabilities: Record<string, unknown>; how: string; initializedIndex?: number } & ConformContext['handshake'])
  | { ok: false; method: 'initialize' | 'server/discover'; answer: ProbeAnswer; how: string };

/** The `initialize` params of the 2025 family: conform advertises no client capability (it answers nothing back), but for the apps check's extension. */
export function initializeParams(protocolVersion: string, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return { protocolVersion, capabilities, clientInfo: { name: 'toolrun', version: readVersion() } };
}

/**
 * Opens the conversation as SPEC §10 chooses the era: a fixed revision is spoken at once; `auto`
 * asks `server/discover` first (a stdio server silent for PROBE_SILENCE_MS is taken for a 2025
 * one), then `initialize` on the same connection. The 2025 handshake ends with `notifications/initialized`.
 */
export async function openHandshake(channel: ProbeChannel, setting: ProtocolSetting): Promise<HandshakeOutcome> {
  let how = '';
  if (setting === 'auto' || eraOfVersion(setting) === 'modern') {
    const version = setting === 'auto' ? LATEST_MODERN_VERSION : setting;
    channel.era = 'modern';
    channel.protocolVersion = version;
    const timeoutMs = setting === 'auto' && channel.transport === 'stdio' ? PROBE_SILENCE_MS : undefined;
    const answer = await channel.request('server/discover', {}, { timeoutMs });
    const judged = answer.kind === 'result' || answer.kind === 'error' ? judgeDiscoverAnswer(answer.frame.message) : undefined;
    if (judged?.kind === 'modern' && answer.kind === 'result') {
      channel.protocolVersion = judged.version;
      return {
        ok: true,
        method: 'server/discover',
        request: channel.frames.find((frame) => frame.direction === 'sent'),
        response: answer.frame,
        result: answer.result,
        capabilities: capabilitiesOf(answer.result),
        how: judged.how,
      };
    }
    if (setting !== 'auto' || answer.kind === 'closed')
      return { ok: false, method: 'server/discover', answer, how: judged?.kind === 'unsupported' ? judged.reason : `server/discover: ${describeAnswer(answer)}` };
    how = answer.kind === 'timeout' ? `server/discover unanswered after ${answer.afterMs} ms, then initialize` : judged && judged.kind === 'legacy' ? judged.how : 'initialize';
  }
  // What the probe exchanged is era detection, not the server's conversation (RecordedFrame.probe).
  for (const frame of channel.frames) frame.probe = true;
  const version = setting === 'auto' ? LATEST_LEGACY_VERSION : setting;
  channel.era = 'legacy';
  channel.protocolVersion = version;
  const sentFrom = channel.frames.length;
  const answer = await channel.request('initialize', initializeParams(version, channel.clientCapabilities ?? {}));
  if (answer.kind !== 'result') return { ok: false, method: 'initialize', answer, how: `initialize: ${describeAnswer(answer)}` };
  const negotiated = answer.result.protocolVersion;
  if (typeof negotiated === 'string') channel.protocolVersion = negotiated;
  const initializedIndex = channel.frames.length;
  await channel.notify('notifications/initialized');
  return {
    ok: true,
    method: 'initialize',
    request: channel.frames.slice(sentFrom).find((frame) => frame.direction === 'sent'),
    response: answer.frame,
    result: answer.result,
    capabilities: capabilitiesOf(answer.result),
    how: how || `initialize with ${version}`,
    initializedIndex,
  };
}

function capabilitiesOf(result: Record<string, unknown>): Record<string, unknown> {
  const capabilities = result.capabilities;
  return capabilities && typeof capabilities === 'object' && !Array.isArray(capabilities) ? (capabilities as Record<string, unknown>) : {};
}
