import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerSpec, ServerSpec } from '../../config/resolve-server.js';
import { eraOfVersion, LEGACY_PROTOCOL_VERSIONS, type EraChoice, type ProtocolEra } from '../../protocol/protocol-era.js';
import { readVersion } from '../../version.js';
import { modernVersionsOfRefusal, probeHttp, probeStdio, PROBE_SILENCE_MS, type ProbeOutcome } from './discover-probe.js';
import { legacyClient, type McpClient } from '../mcp-client.js';
import { httpTarget } from '../../trace/run-trace.js';
import { NegotiatingTransport } from '../transports/negotiating-transport.js';
import { createModernHttpTransport, remoteTarget } from '../transports/remote-transport.js';
import { remoteAuth } from '../../auth/remote-auth.js';
import { ToolrunError } from '../../errors.js';
import { clientCapabilitiesOf, installAskBack, type AskBack } from '../ask-back.js';
import { remoteFetch } from '../../http/remote-fetch.js';

/** The server speaks no revision toolrun does, or not the one the config fixed: retrying cannot help. */
export class ProtocolEraError extends ToolrunError {
  readonly code = 'PROTOCOL_ERA';
  constructor(message: string) {
    super('unreachable', message);
    this.name = 'ProtocolEraError';
  }
}

export interface OpenClientOptions {
  signal: AbortSignal;
  /** The SDK's own backstop for the handshake, beyond toolrun's deadline. */
  timeout: number;
  /** Resolves once the server itself runs (after an npx-style install): the probe's silence counts from then. */
  serverRunning?: Promise<void>;
  /** How a server that asks back (elicitation, sampling, roots) is answered; what is absent is not advertised. */
  askBack?: AskBack;
  /** The era the server spoke when last connected (the tool index's note): only which client loads early depends on it. */
  expectedEra?: ProtocolEra;
  /** Extensions claimed in the client capabilities (`extensions`), beyond the ones toolrun always claims. */
  clientExtensions?: Record<string, Record<string, unknown>>;
}

/** Which request toolrun was waiting for when an attempt failed: set as the handshake goes. */
export interface HandshakeProgress {
  phase: 'server/discover' | 'initialize';
}

/**
 * Opens the MCP session on a started-or-not transport, in the era the server speaks (SPEC §10):
 * the one place toolrun chooses between `initialize` (2025 family, v1 SDK) and `server/discover`
 * (2026-07-28, v2 client). `auto` probes with server/discover first; a fixed revision skips the probe.
 */
export async function openClient(spec: ServerSpec, transport: Transport, kind: 'stdio' | 'http' | 'sse', options: OpenClientOptions, progress: HandshakeProgress): Promise<McpClient> {
  const { setting, chosenBy } = spec.protocol;
  const fixedBy = chosenBy === 'flag' ? '--protocol' : `"protocol" in the entry of '${spec.name}'`;
  const negotiating = new NegotiatingTransport(transport);
  const remoteUrl = kind === 'stdio' ? undefined : new URL((spec as RemoteServerSpec).url);
  negotiating.networkTarget = remoteUrl ? httpTarget(remoteUrl) : { transport: 'pipe' };
  if (kind === 'sse' || (setting !== 'auto' && eraOfVersion(setting) === 'legacy')) {
    if (setting !== 'auto' && eraOfVersion(setting) === 'modern') throw new ProtocolEraError(`protocol ${setting} is not spoken over the SSE transport; use "type": "http"`);
    if (setting !== 'auto') negotiating.initializeVersion = setting;
    const how = setting === 'auto' ? 'initialize (the SSE transport predates server/discover)' : `fixed by ${fixedBy}: initialize asked for ${setting}`;
    return openLegacy(spec.name, negotiating, { chosenBy, how, fixed: setting === 'auto' ? undefined : setting, probed: false }, options, progress);
  }
  progress.phase = 'server/discover';
  // Loaded while the server starts and answers the probe, not after: its load is most of what a
  // 2026-07-28 connection costs beyond the round trips. Except for a server that spoke the 2025
  // family last time: then the v1 client is loaded early instead, and the v2 one (~0.08 s of CPU,
  // 359 kB) only if the probe says the server has changed.
  const expectLegacy = options.expectedEra === 'legacy';
  if (expectLegacy) legacyClientModules().catch(() => {});
  const modernClientModule = expectLegacy ? undefined : import('../modern-client.js');
  modernClientModule?.catch(() => {});
  const remote = kind === 'http' ? remoteTarget(spec as RemoteServerSpec) : undefined;
  const probe = (waitMs: number): Promise<ProbeOutcome> =>
    remote
      ? probeHttp(remote.url, remote.headers, options.signal, remoteAuth(spec as RemoteServerSpec, remote.headers)?.wrapFetch(remoteFetch))
      : probeStdio(negotiating, options.signal, waitMs, options.serverRunning);
  // Half the connect timeout at most: a silent server still gets its initialize within the attempt.
  let outcome = await probe(setting === 'auto' ? Math.min(PROBE_SILENCE_MS, spec.connectTimeoutMs / 2) : options.timeout);
  if (outcome.kind === 'unsupported') throw new ProtocolEraError(outcome.reason);
  if (outcome.kind === 'legacy') {
    if (setting !== 'auto')
      throw new ProtocolEraError(`protocol is fixed to ${setting} by ${fixedBy}, but the server does not speak it (${outcome.how.replace(/, then initialize$/, '')}); set it to "auto"`);
    try {
      return await openLegacy(spec.name, negotiating, { chosenBy, how: outcome.how, probed: true }, options, progress);
    } catch (error) {
      // A modern-only server whose discover answer came after the probe gave up (a slow start).
      if (!modernVersionsOfRefusal(error) || remote) throw error;
      progress.phase = 'server/discover';
      outcome = await probe(options.timeout);
      if (outcome.kind !== 'modern') throw error;
      outcome = { ...outcome, how: 'initialize refused (a 2026-07-28 server), then server/discover answered' };
    }
  }
  const choice: EraChoice = {
    era: 'modern',
    version: outcome.version,
    chosenBy,
    how: chosenBy === 'auto' ? outcome.how : `fixed by ${fixedBy}; ${outcome.how}`,
    handshake: 'server/discover',
    probed: true,
  };
  const modernTransport = remote ? new NegotiatingTransport(await createModernHttpTransport(remote, spec as RemoteServerSpec)) : negotiating;
  if (remote) modernTransport.networkTarget = httpTarget(remote.url);
  const { connectModernClient } = await (modernClientModule ?? import('../modern-client.js'));
  return connectModernClient(spec.name, modernTransport, outcome.discover, choice, options);
}

/** The v1 SDK client and what it needs (2025 family). */
function legacyClientModules() {
  return Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
    import('../../schema/compile-schema.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
}

async function openLegacy(
  server: string,
  transport: NegotiatingTransport,
  choice: { chosenBy: EraChoice['chosenBy']; how: string; fixed?: string; probed: boolean },
  options: OpenClientOptions,
  progress: HandshakeProgress,
): Promise<McpClient> {
  progress.phase = 'initialize';
  const [{ Client }, { AjvJsonSchemaValidator }, { createSdkAjv }, types] = await legacyClientModules();
  // The SDK's validator, with an Ajv whose schema warnings toolrun collects (not raw lines on stderr).
  const client = new Client(
    { name: 'toolrun', version: readVersion() },
    {
      capabilities: { ...clientCapabilitiesOf(options.askBack), ...(options.clientExtensions && { extensions: options.clientExtensions }) },
      jsonSchemaValidator: new AjvJsonSchemaValidator(createSdkAjv()),
    },
  );
  const requestSchemas = { 'elicitation/create': types.ElicitRequestSchema, 'sampling/createMessage': types.CreateMessageRequestSchema, 'roots/list': types.ListRootsRequestSchema } as const;
  installAskBack(
    (method, handler) => client.setRequestHandler(requestSchemas[method] as typeof types.ElicitRequestSchema, (request, extra) => handler(request, extra.signal) as never),
    options.askBack,
    server,
  );
  // The SDK reports transport-level trouble here; toolrun reports it through the attempt's outcome.
  client.onerror = () => {};
  await client.connect(transport, { signal: options.signal, timeout: options.timeout });
  const version = transport.negotiatedVersion ?? (transport.inner as { protocolVersion?: string }).protocolVersion ?? LEGACY_PROTOCOL_VERSIONS[0];
  const oldest = LEGACY_PROTOCOL_VERSIONS.at(-1)!;
  // Not closed here: the attempt's failure path closes the transport, ending an HTTP session first.
  if (version < oldest) {
    throw new ProtocolEraError(`the server speaks MCP ${version}, older than ${oldest}, the oldest revision toolrun speaks; update the server's MCP SDK`);
  }
  if (choice.fixed && version !== choice.fixed) {
    throw new ProtocolEraError(`protocol is fixed to ${choice.fixed}, but the server answered initialize with ${version}; set "protocol" to "auto" or "${version}"`);
  }
  return legacyClient(client, { era: 'legacy', version, chosenBy: choice.chosenBy, how: choice.how, handshake: 'initialize', probed: choice.probed }, transport);
}
