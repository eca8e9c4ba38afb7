import type { ToolrunConfig } from '../config/config-types.js';
import type { ArgWord } from '../args/parse-tool-args.js';
import { mergeArguments } from '../cli-support/tool-arguments.js';
import { ToolrunError } from '../errors.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { isConnectionLost } from '../mcp/connection-lost.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { Registry } from '../assembly/server-status.js';
import type { CallCauseWatch } from './call-causes.js';
import type { AskAnswer, AskMethod, HolderRequest } from './holder-protocol.js';

/** One request being served: its events go to the client that sent it. */
export interface RequestContext {
  request: HolderRequest;
  signal: AbortSignal;
  event(event: string, fields: Record<string, unknown>): void;
  /** Marks the request as using this server, so the server's stderr and logs reach this client. */
  uses(server: string): void;
  /** Relays a server's question to the client that sent this request; resolves with its answer. */
  ask(question: { server: string; method: AskMethod; params: unknown }, signal: AbortSignal): Promise<AskAnswer>;
}

/** What a holder's requests are served from. */
export interface HolderState {
  config: ToolrunConfig;
  registry: Registry;
  /** Configured servers the holder was asked to hold (connected or not). */
  held: Set<string>;
  calls: Map<string, number>;
  /** Stderr causes of held servers, read during calls (call-causes.ts). */
  causes: CallCauseWatch;
  /**
   * The live connection of a held server — restarting it first when it crashed and the restart
   * policy allows (run-holder.ts) — or undefined.
   */
  revive(name: string): Promise<ServerConnection | undefined>;
  /** Why a held server is not live (for the client's --verbose line). */
  whyNotLive(name: string): string;
  /** A call on this server succeeded: it works again (crashed-servers.ts). */
  noteServed(name: string): void;
}

/** The connected, still-alive connection of a held server, or undefined. */
export function liveConnection(state: HolderState, name: string): ServerConnection | undefined {
  if (!state.held.has(name)) return undefined;
  const status = state.registry.servers.get(name);
  return status?.status === 'connected' && !isConnectionLost(status.connection) ? status.connection : undefined;
}

/** Does the holder hold every configured server, alive? Then a tool it does not know is in no server. */
export function holdsAll(state: HolderState): boolean {
  return Object.keys(state.config.servers).every((name) => liveConnection(state, name));
}

/**
 * `exec`: the engine half of `toolrun exec` (resolve the tool, type the key=value words by its
 * schema, run it with the executor), the terminal half staying in the client. A tool the holder
 * cannot answer for (a server it does not hold or that died, a local tool) is a `miss`: the
 * client runs the command cold, as without a holder.
 */
export async function execOp(state: HolderState, context: RequestContext): Promise<Record<string, unknown>> {
  const {
    tool: name,
    server,
    words,
    args,
    validate,
    timeoutMs,
    verbose,
  } = context.request as unknown as { tool: string; server?: string; words: ArgWord[]; args?: Record<string, unknown>; validate?: boolean; timeoutMs?: number; verbose?: boolean };
  if (server && !(await state.revive(server))) return { miss: state.whyNotLive(server) };
  let tool = state.registry.find(name, server);
  if (!tool) {
    // A broken definition, or a server not held: the cold run says what is wrong with it.
    const broken = [...state.held].some((held) => liveConnection(state, held)?.brokenTools.some((candidate) => candidate.name === name));
    if (server || broken || !holdsAll(state)) return { miss: `'${server ? `${server}:` : ''}${name}' is not among the held servers' tools` };
    // The holder has every server: the tool is nowhere. The registry says so with the closest names.
    tool = state.registry.get(name);
  }
  const toolServer = tool.server;
  if (!toolServer) return { miss: `'${name}' is a local tool` };
  const connection = await state.revive(toolServer);
  if (!connection) return { miss: state.whyNotLive(toolServer) };
  // Restarted: the registry's tool is the new connection's (registered again).
  tool = state.registry.find(tool.qualifiedName) ?? tool;
  context.uses(toolServer);
  state.calls.set(toolServer, (state.calls.get(toolServer) ?? 0) + 1);
  const merged = mergeArguments(tool, words ?? [], args ?? {}, state.config.paramMappings);
  const note = (level: string) => (text: string) => context.event('note', { level, text });
  const logger = { warn: note('warn'), info: note('info'), verbose: verbose ? note('verbose') : () => {} };
  const executor = new ToolExecutor(state.registry, { timeoutMs: timeoutMs ?? state.config.timeoutMs, slowToolMs: state.config.slowToolMs, paramMappings: state.config.paramMappings, logger });
  const envelope = await state.causes.during(toolServer, name, context.signal, (signal) =>
    executor.execute(tool.qualifiedName, merged, { validate, signal, raw: true, onProgress: (progress) => context.event('progress', { progress }) }),
  );
  if (envelope.success) state.noteServed(toolServer);
  return { envelope };
}

/** `servers`: what a client needs to stand in for a connection (list, resources, prompts, time). */
export async function serversOp(state: HolderState, context: RequestContext): Promise<Record<string, unknown>> {
  const names = (context.request.names as string[] | undefined) ?? [...state.held];
  const revived = await Promise.all(names.map((name) => state.revive(name)));
  const servers = names.flatMap((name, index) => {
    const connection = revived[index];
    if (!connection) return [];
    const { transportKind, serverInfo, protocolVersion, era, capabilities, instructions, tools, brokenTools, installed, timings, attempt } = connection;
    return [{ name, transportKind, serverInfo, protocolVersion, era, capabilities, instructions, tools, brokenTools, installed, timings, attempt }];
  });
  return { servers };
}

/** `request`, `call-tool`, `ping`: one MCP request to a held server, on the client's behalf. */
export async function mcpOp(state: HolderState, context: RequestContext): Promise<Record<string, unknown>> {
  const { op, server, method, params, name, args, timeoutMs, task } = context.request as unknown as {
    op: string;
    server: string;
    method: string;
    params?: Record<string, unknown>;
    name: string;
    args?: Record<string, unknown>;
    timeoutMs?: number;
    task?: { asTask?: boolean; wait?: boolean };
  };
  const connection = await state.revive(server);
  if (!connection)
    throw new ToolrunError(
      'unreachable',
      `the session holder's MCP server '${server}' is not connected any more (${state.whyNotLive(server)}); run the command again (with --no-session to start it here)`,
    );
  context.uses(server);
  const options = { signal: context.signal, timeout: timeoutMs };
  if (op === 'ping') {
    await connection.client.ping(options);
    return {};
  }
  if (op === 'call-tool') {
    state.calls.set(server, (state.calls.get(server) ?? 0) + 1);
    const result = await state.causes.during(server, name, context.signal, (signal) =>
      connection.client.callTool(name, args ?? {}, { ...options, signal, onProgress: (progress) => context.event('progress', { progress }), ...(task && { task }) }),
    );
    if (!result.isError) state.noteServed(server);
    return { result };
  }
  return { result: await connection.client.request(method, params, options) };
}

/**
 * `time`: the timed loop of `toolrun time`, run in the holder next to its live connection, so each
 * measured call is the tool's round trip, not that plus a hop to the holder and back. Arguments come
 * prepared (normalized and validated) by the client; the client's Ctrl-C stops the loop.
 */
export async function timeOp(state: HolderState, context: RequestContext): Promise<Record<string, unknown>> {
  const {
    tool: qualifiedName,
    args,
    iterations,
    warmup,
    concurrency,
    timeoutMs,
  } = context.request as unknown as { tool: string; args: Record<string, unknown>; iterations: number; warmup: number; concurrency: number; timeoutMs?: number };
  const server = state.registry.find(qualifiedName)?.server;
  const connection = server ? await state.revive(server) : undefined;
  const tool = state.registry.find(qualifiedName);
  if (!tool || !connection) throw new ToolrunError('unreachable', `the session holder cannot run '${qualifiedName}' any more; run the command again`);
  context.uses(connection.name);
  const { runTimedCalls } = await import('../timing/run-timed-calls.js');
  const executor = new ToolExecutor(state.registry, {
    timeoutMs: timeoutMs ?? state.config.timeoutMs,
    slowToolMs: state.config.slowToolMs,
    paramMappings: state.config.paramMappings,
    logger: { warn: () => {}, info: () => {}, verbose: () => {} },
  });
  let lastEvent = 0;
  const result = await runTimedCalls(
    executor,
    { tool, args },
    {
      iterations,
      warmup,
      concurrency,
      signal: context.signal,
      isFatal: () => isConnectionLost(connection),
      onProgress: (done) => {
        const now = Date.now();
        if (now - lastEvent > 100 || done === iterations) {
          lastEvent = now;
          context.event('timed', { count: done });
        }
      },
    },
  );
  state.calls.set(connection.name, (state.calls.get(connection.name) ?? 0) + result.calls);
  return { result: { ...result, errors: [...result.errors] } };
}

/** Lines of a server's stderr `stderr` answers with at most (the shell's `.stderr`). */
const STDERR_TAIL_LINES = 50;

/** `stderr`: the last lines each held server (or the one named) wrote on stderr, a crashed one's included. */
export function stderrOp(state: HolderState, context: RequestContext): Record<string, unknown> {
  const server = context.request.server as string | undefined;
  const names = server ? [server] : [...state.held];
  const stderr = names.map((name) => {
    const entry = state.registry.servers.get(name);
    const lines = entry?.status === 'connected' ? (entry.connection.stdio?.stderr.lastLines(STDERR_TAIL_LINES) ?? []) : [];
    return { server: name, held: state.held.has(name), lines };
  });
  return { stderr };
}

/**
 * `follow`: the held servers' stderr and log messages as events, between calls too, until the client
 * cancels it or goes away — what the shell prints above its prompt. Its questions (a server asking
 * back with no call running) the client may leave unhandled.
 */
export async function followOp(state: HolderState, context: RequestContext): Promise<Record<string, unknown>> {
  for (const name of state.held) context.uses(name);
  await new Promise((resolve) => (context.signal.aborted ? resolve(undefined) : context.signal.addEventListener('abort', resolve, { once: true })));
  return {};
}
