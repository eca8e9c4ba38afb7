import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RemoteServerSpec, ServerSpec, StdioServerSpec } from '../../config/resolve-server.js';
import { listToolsLeniently, type BrokenTool } from '../list-tools.js';
import { AttemptDeadline } from './attempt-deadline.js';
import { classifyAttempt, type AttemptPhase } from './classify-attempt.js';
import type { Cause } from '../causes/failure-causes.js';
import type { RawLine } from '../../process/line-splitter.js';
import { detectPackageRunner, listNpxCache, npxCacheFolder, packageNameOf, readRunnerPhase, removeHalfInstalledPackage, type PackageRunner } from './package-runner.js';
import { createRemoteTransport, suggestsSseFallback } from '../transports/remote-transport.js';
import type { ServerConnection } from '../server-connection.js';
import type { ExitInfo } from '../../process/exit-info.js';
import { SpawnError } from '../../process/server-process.js';
import { LineTransport } from '../transports/line-transport.js';
import type { McpClient } from '../mcp-client.js';
import { openClient, type HandshakeProgress } from './open-client.js';
import { endRemoteSession } from '../transports/remote-session.js';
import { ToolrunError } from '../../errors.js';
import { serverEnvironment } from '../../process/launch-environment.js';
import type { AskBack } from '../ask-back.js';
import type { ProtocolEra } from '../../protocol/protocol-era.js';
import { serverCallerEnv } from '../../run-environment.js';

export interface ConnectHooks {
  onPollution?: (server: string, line: RawLine, reason: string) => void;
  onStderr?: (server: string, chunk: Buffer) => void;
  onStdoutLine?: (server: string, line: RawLine) => void;
  onStdoutChunk?: (server: string, chunk: Buffer) => void;
  /** The bytes written to the server's stdin. */
  onStdinChunk?: (server: string, chunk: Buffer) => void;
  /** An npx-style runner is still installing the package (said once per attempt, after a second). */
  onInstalling?: (server: string, runner: PackageRunner) => void;
  /** toolrun had to end a runner mid-install and removed what it left in the npx cache. */
  onCacheRepaired?: (server: string, folders: string[]) => void;
  /** A log message the server sent (`notifications/message`), once connected. */
  onServerLog?: (server: string, params: Record<string, unknown>) => void;
  shutdownGraceMs?: number;
  /** Wait the whole grace after stdin closes, however idle the server (doctor, which judges how it exits). */
  patientShutdown?: boolean;
  /** Ctrl-C: ends the attempt at once, the server politely. */
  signal?: AbortSignal;
  /** How a server that asks back is answered (SPEC §15): elicitation, sampling, roots. */
  askBack?: AskBack;
  /** The era a server spoke when last connected, if known (the tool index): what to load while it starts. */
  expectedEra?: (server: string) => ProtocolEra | undefined;
  /** Extensions toolrun claims in its client capabilities (`extensions`, SEP-2133), only when a command probes them (mcp apps). */
  clientExtensions?: Record<string, Record<string, unknown>>;
}

/** Thrown by one failed attempt, classified once (classify-attempt.ts): the cause says what to do. */
export class AttemptError extends ToolrunError {
  /** How the process had exited when the attempt failed; undefined if toolrun had to end it. */
  readonly exit: ExitInfo | undefined;
  constructor(
    readonly failureCause: Cause,
    readonly phase: AttemptPhase,
    readonly stdio?: LineTransport,
    options?: { cause?: unknown },
  ) {
    super('unreachable', failureCause.reason, options);
    this.name = 'AttemptError';
    this.exit = stdio?.exitInfo;
  }

  get retryable(): boolean {
    return this.failureCause.retryable;
  }
}

const FAILED_ATTEMPT_GRACE_MS = 200;

/** One attempt: start the transport, initialize within the connect timeout, list the tools. */
export async function connectOnce(spec: ServerSpec, hooks: ConnectHooks = {}): Promise<ServerConnection> {
  if (spec.transport === 'stdio') return connectStdio(spec, hooks);
  if (spec.transport === 'auto') {
    try {
      return await connectRemote(spec, 'http', hooks);
    } catch (error) {
      if (!(error instanceof AttemptError) || !suggestsSseFallback(error.cause)) throw error;
      return connectRemote(spec, 'sse', hooks);
    }
  }
  return connectRemote(spec, spec.transport, hooks);
}

async function connectStdio(spec: StdioServerSpec, hooks: ConnectHooks): Promise<ServerConnection> {
  const startedAt = performance.now();
  const runner = detectPackageRunner(spec.command, spec.args);
  const env = serverEnvironment(spec, serverCallerEnv());
  const cacheRepair = runner?.kind === 'npm' ? prepareCacheRepair(runner, env, spec.name, hooks) : undefined;
  const transport = new LineTransport({
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env,
    onPollution: hooks.onPollution && ((line, reason) => hooks.onPollution!(spec.name, line, reason)),
    onStderr: hooks.onStderr && ((chunk) => hooks.onStderr!(spec.name, chunk)),
    onStdoutLine: hooks.onStdoutLine && ((line) => hooks.onStdoutLine!(spec.name, line)),
    onStdoutChunk: hooks.onStdoutChunk && ((chunk) => hooks.onStdoutChunk!(spec.name, chunk)),
    onStdinChunk: hooks.onStdinChunk && ((chunk) => hooks.onStdinChunk!(spec.name, chunk)),
    shutdownGraceMs: hooks.shutdownGraceMs,
    stdinCloseWait: hooks.patientShutdown ? 'full' : 'while-busy',
    causeContext: { packageName: runner?.packageSpec },
    shutdownHooks: cacheRepair && { before: () => cacheRepair.noteShutdownStart(transport.exitInfo ? undefined : transport.pid), after: () => cacheRepair.repairIfNeeded() },
  });
  const deadline = new AttemptDeadline({
    connectTimeoutMs: spec.connectTimeoutMs,
    installTimeoutMs: spec.installTimeoutMs,
    outer: hooks.signal,
    runner: runner && { info: runner, pid: () => transport.pid },
    onInstalling: (info) => hooks.onInstalling?.(spec.name, info),
  });
  transport.stderr.onCause = (cause) => deadline.noteCause(cause);
  const connection = await initialize(spec, transport, 'stdio', startedAt, transport, deadline, runner, hooks);
  // It answered: whatever the runner installed is complete.
  cacheRepair?.forget();
  connection.timings.spawnMs = round((transport.spawnedAt ?? startedAt) - startedAt);
  return connection;
}

async function connectRemote(spec: RemoteServerSpec, kind: 'http' | 'sse', hooks: ConnectHooks): Promise<ServerConnection> {
  const startedAt = performance.now();
  const transport = await createRemoteTransport(spec, kind);
  const deadline = new AttemptDeadline({ connectTimeoutMs: spec.connectTimeoutMs, installTimeoutMs: 0, outer: hooks.signal });
  return initialize(spec, transport, kind, startedAt, undefined, deadline, undefined, hooks);
}

async function initialize(
  spec: ServerSpec,
  transport: Transport,
  kind: ServerConnection['transportKind'],
  startedAt: number,
  stdio: LineTransport | undefined,
  deadline: AttemptDeadline,
  runner: PackageRunner | undefined,
  hooks: ConnectHooks,
): Promise<ServerConnection> {
  const progress: HandshakeProgress = { phase: 'initialize' };
  let client: McpClient | undefined;
  const fail = async (error: unknown, phase: AttemptPhase): Promise<never> => {
    deadline.dispose();
    if (deadline.stop?.kind === 'interrupted') {
      await closeQuietly(client, transport, stdio, undefined);
      throw deadline.stop.reason;
    }
    // Classified before closing: closing a hung server gives it an exit signal that is toolrun's doing.
    const failureCause = classifyAttempt({
      phase: error instanceof SpawnError ? 'spawn' : deadline.stop?.kind === 'install-timeout' ? 'install' : phase,
      error,
      stop: deadline.stop,
      exit: stdio?.exitInfo,
      stderrCauses: stdio ? [...stdio.stderr.causes.values()] : [],
      url: stdio ? undefined : (spec as RemoteServerSpec).url,
      runner,
    });
    const attemptError = new AttemptError(failureCause, error instanceof SpawnError ? 'spawn' : phase, stdio, { cause: error });
    // A runner still installing gets the full grace: its cache must not be cut mid-write.
    await closeQuietly(client, transport, stdio, deadline.sawInstall ? undefined : FAILED_ATTEMPT_GRACE_MS);
    throw attemptError;
  };
  if (stdio) stdio.closeOnRequest = false;
  try {
    client = await openClient(
      spec,
      transport,
      kind,
      {
        signal: deadline.signal,
        timeout: deadline.backstopMs,
        serverRunning: deadline.running,
        askBack: hooks.askBack,
        expectedEra: hooks.expectedEra?.(spec.name),
        clientExtensions: hooks.clientExtensions,
      },
      progress,
    );
  } catch (error) {
    return fail(error, progress.phase);
  }
  const initializedAt = performance.now();
  let tools: Tool[] = [];
  let brokenTools: BrokenTool[] = [];
  try {
    // Under the attempt's deadline: a server that pages forever, or slowly, ends with the connect timeout.
    if (client.capabilities?.tools)
      ({ tools, broken: brokenTools } = await listToolsLeniently(client, {
        signal: deadline.signal,
        timeout: spec.connectTimeoutMs,
        checkParamHeaders: kind === 'http' && client.choice.era === 'modern',
      }));
  } catch (error) {
    return fail(error, 'tools/list');
  }
  deadline.dispose();
  if (stdio) stdio.closeOnRequest = true;
  const listedAt = performance.now();
  const connected = client;
  const onServerLog = hooks.onServerLog;
  if (onServerLog) connected.onNotification('notifications/message', (params) => onServerLog(spec.name, params));
  return {
    name: spec.name,
    spec,
    client: connected,
    transport,
    stdio,
    transportKind: kind,
    serverInfo: connected.serverInfo,
    protocolVersion: connected.choice.version,
    era: connected.choice,
    capabilities: connected.capabilities,
    instructions: connected.instructions,
    tools,
    brokenTools,
    installed: deadline.sawInstall,
    timings: { handshake: connected.choice.handshake, initializeMs: round(initializedAt - startedAt), listToolsMs: round(listedAt - initializedAt), totalMs: round(listedAt - startedAt) },
    attempt: 1,
    close: async () => {
      // Over HTTP the session is ended (DELETE) before the transport closes: closing cancels its requests.
      const outcome = stdio ? await stdio.shutdown() : await endRemoteSession(connected.transport?.inner ?? transport);
      await connected.close().catch(() => {});
      return outcome;
    },
  };
}

async function closeQuietly(client: McpClient | undefined, transport: Transport, stdio: LineTransport | undefined, graceMs: number | undefined): Promise<void> {
  // A failed attempt is followed by a retry or an error message: no need to wait long for it.
  if (stdio) await stdio.shutdown(graceMs).catch(() => {});
  // A session the server opened (initialize answered, then something failed) is ended all the same.
  else await endRemoteSession(client?.transport?.inner ?? transport);
  await (client ?? transport).close().catch(() => {});
}

/**
 * npx keeps each package in `_npx/<hash>`; a runner ended mid-install leaves that folder half-written
 * and breaks the next `npx` of the package for every client. When toolrun has to end a runner that
 * is still installing (Ctrl-C, the install timeout), it removes the folder this install created.
 */
function prepareCacheRepair(runner: PackageRunner, env: NodeJS.ProcessEnv, server: string, hooks: ConnectHooks) {
  const folder = npxCacheFolder(env);
  const before = listNpxCache(folder);
  let endedMidInstall = false;
  let answered = false;
  return {
    forget: () => {
      answered = true;
    },
    /** `pid` of a runner still alive when its shutdown starts. */
    noteShutdownStart: (pid: number | undefined) => {
      endedMidInstall = !answered && pid !== undefined && readRunnerPhase(runner, pid) === 'installing';
    },
    repairIfNeeded: () => {
      if (!endedMidInstall) return;
      const removed = removeHalfInstalledPackage(folder, before, packageNameOf(runner.packageSpec));
      if (removed.length > 0) hooks.onCacheRepaired?.(server, removed);
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
