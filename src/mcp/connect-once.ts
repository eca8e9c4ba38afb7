import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { RemoteServerSpec, ServerSpec, StdioServerSpec } from '../config/resolve-server.js';
import type { RawLine } from './line-splitter.js';
import { createRemoteTransport, suggestsSseFallback } from './remote-transport.js';
import type { ServerConnection } from './server-connection.js';
import { StdioTapTransport, type ExitInfo } from './stdio-tap-transport.js';
import { readVersion } from '../version.js';

export interface ConnectHooks {
  onPollution?: (server: string, line: RawLine, reason: string) => void;
  onStderr?: (server: string, chunk: Buffer) => void;
  onStdoutLine?: (server: string, line: RawLine) => void;
  onStdoutChunk?: (server: string, chunk: Buffer) => void;
  shutdownGraceMs?: number;
}

/** Thrown by one failed attempt; carries what connect-with-retry needs to explain it. */
export class AttemptError extends Error {
  /** How the process had exited when the attempt failed; undefined if toolrun had to end it. */
  readonly exit: ExitInfo | undefined;
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly stdio?: StdioTapTransport,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AttemptError';
    this.exit = stdio?.exitInfo;
  }
}

const FAILED_ATTEMPT_GRACE_MS = 200;

/** One attempt: start the transport, initialize within the connect timeout, list the tools. */
export async function connectOnce(spec: ServerSpec, hooks: ConnectHooks = {}): Promise<ServerConnection> {
  if (spec.transport === 'stdio') return connectStdio(spec, hooks);
  if (spec.transport === 'auto') {
    try {
      return await connectRemote(spec, 'http');
    } catch (error) {
      if (!(error instanceof AttemptError) || !suggestsSseFallback(error.cause)) throw error;
      return connectRemote(spec, 'sse');
    }
  }
  return connectRemote(spec, spec.transport);
}

async function connectStdio(spec: StdioServerSpec, hooks: ConnectHooks): Promise<ServerConnection> {
  const startedAt = performance.now();
  const transport = new StdioTapTransport({
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    // The parent's whole environment plus the server's own: HTTPS_PROXY, NODE_EXTRA_CA_CERTS and
    // friends reach the server (the SDK passes only six variables).
    env: { ...process.env, ...spec.env },
    onPollution: hooks.onPollution && ((line, reason) => hooks.onPollution!(spec.name, line, reason)),
    onStderr: hooks.onStderr && ((chunk) => hooks.onStderr!(spec.name, chunk)),
    onStdoutLine: hooks.onStdoutLine && ((line) => hooks.onStdoutLine!(spec.name, line)),
    onStdoutChunk: hooks.onStdoutChunk && ((chunk) => hooks.onStdoutChunk!(spec.name, chunk)),
    shutdownGraceMs: hooks.shutdownGraceMs,
  });
  const connection = await initialize(spec, transport, 'stdio', startedAt, transport);
  connection.timings.spawnMs = round((transport.spawnedAt ?? startedAt) - startedAt);
  return connection;
}

async function connectRemote(spec: RemoteServerSpec, kind: 'http' | 'sse'): Promise<ServerConnection> {
  const startedAt = performance.now();
  const transport = await createRemoteTransport(spec, kind);
  return initialize(spec, transport, kind, startedAt, undefined);
}

async function initialize(spec: ServerSpec, transport: Transport, kind: ServerConnection['transportKind'], startedAt: number, stdio: StdioTapTransport | undefined): Promise<ServerConnection> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client({ name: 'toolrun', version: readVersion() }, { capabilities: {} });
  // The SDK reports transport-level trouble here; toolrun reports it through the attempt's outcome.
  client.onerror = () => {};
  const timeout = spec.connectTimeoutMs;
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    // Described before closing: closing a hung server gives it an exit signal that is toolrun's doing.
    const attemptError = new AttemptError(describeInitializeFailure(error, stdio, timeout, spec), isRetryable(error, stdio), stdio, { cause: error });
    await closeQuietly(client, stdio);
    throw attemptError;
  }
  const initializedAt = performance.now();
  let tools: ListToolsResult['tools'] = [];
  try {
    if (client.getServerCapabilities()?.tools) tools = await listAllTools(client, timeout);
  } catch (error) {
    const attemptError = new AttemptError(`tools/list failed: ${describeError(error, stdio, timeout, 'tools/list')}`, true, stdio, { cause: error });
    await closeQuietly(client, stdio);
    throw attemptError;
  }
  const listedAt = performance.now();
  return {
    name: spec.name,
    spec,
    client,
    transport,
    stdio,
    transportKind: kind,
    serverInfo: client.getServerVersion(),
    protocolVersion: stdio?.protocolVersion ?? (transport as { protocolVersion?: string }).protocolVersion,
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    tools,
    timings: { initializeMs: round(initializedAt - startedAt), listToolsMs: round(listedAt - initializedAt), totalMs: round(listedAt - startedAt) },
    attempt: 1,
    close: async () => {
      const outcome = stdio ? await stdio.shutdown() : undefined;
      await client.close().catch(() => {});
      return outcome;
    },
  };
}

async function listAllTools(client: import('@modelcontextprotocol/sdk/client/index.js').Client, timeout: number): Promise<ListToolsResult['tools']> {
  const tools: ListToolsResult['tools'] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function closeQuietly(client: { close(): Promise<void> }, stdio: StdioTapTransport | undefined): Promise<void> {
  // A failed attempt is followed by a retry or an error message: no need to wait long for it.
  if (stdio) await stdio.shutdown(FAILED_ATTEMPT_GRACE_MS).catch(() => {});
  await client.close().catch(() => {});
}

function describeInitializeFailure(error: unknown, stdio: StdioTapTransport | undefined, timeout: number, spec: ServerSpec): string {
  if ((error as { name?: string })?.name === 'SpawnError') return (error as Error).message;
  if (!stdio && isConnectionRefused(error)) return `connection refused at ${(spec as RemoteServerSpec).url}: is the server running?`;
  return describeError(error, stdio, timeout, 'initialize');
}

function describeError(error: unknown, stdio: StdioTapTransport | undefined, timeout: number, request: string): string {
  const exit = stdio?.exitInfo;
  if (exit) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return `server ${how} before answering ${request}`;
  }
  const message = oneLine((error as Error)?.message ?? String(error));
  if (/timed out|RequestTimeout|-32001/i.test(message)) return `no answer to ${request} within ${timeout} ms (the server hangs, or starts slowly: raise connectTimeoutMs)`;
  if (/Connection closed/i.test(message)) return `the connection closed before ${request} was answered`;
  return message.replace(/^MCP error -?\d+: /, '');
}

function isRetryable(error: unknown, stdio: StdioTapTransport | undefined): boolean {
  const code = (error as { code?: string })?.code;
  if ((error as { name?: string })?.name === 'SpawnError') return code !== 'ENOENT' && code !== 'ENOCWD' && code !== 'EACCES';
  if (/protocol version is not supported/i.test((error as Error)?.message ?? '')) return false;
  return stdio !== undefined || !/\b(401|403)\b/.test((error as Error)?.message ?? '');
}

function isConnectionRefused(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ''} ${String((error as { cause?: unknown })?.cause ?? '')}`;
  return /ECONNREFUSED|fetch failed/i.test(text);
}

/** Error texts can carry a whole HTML error page: keep one readable line. */
function oneLine(text: string): string {
  const flat = text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
