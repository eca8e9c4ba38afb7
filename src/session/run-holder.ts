import { chmodSync, closeSync, createWriteStream, writeSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { loadConfig } from '../config/load-config.js';
import { describeThrown, ToolrunError } from '../errors.js';
import { connectServers } from '../assembly/connect-servers.js';
import type { ConnectFailure } from '../mcp/connect-failure.js';
import { createRegistry } from '../assembly/create-registry.js';
import { acquireLock, joinRunningHolder, tryUnlink } from './holder-lock.js';
import { execOp, liveConnection, holdsAll, mcpOp, serversOp, timeOp, type HolderState, type RequestContext } from './holder-ops.js';
import { messageReader, type HolderRequest, type HolderStatus } from './holder-protocol.js';
import { startReaper } from './reaper.js';
import { sessionKey } from './session-key.js';
import { sessionDirectory, sessionFiles } from './session-paths.js';

export interface HolderOptions {
  configPath?: string;
  protocol?: string;
  /** Servers to hold (empty: every configured one). */
  servers: string[];
  idleMs: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** This holder's own script (dist/session-holder.js), to start the reaper with. */
  holderScript: string;
}

/** What the holder writes on stdout once ready (one line), for `session start`. */
export interface HolderReady {
  status: HolderStatus;
  failures: ConnectFailure[];
  /** Another holder for the same config was already running: this one handed the servers to it. */
  joined?: boolean;
}

/**
 * The session holder (SPEC §12): keeps one config's MCP servers connected and serves requests on a
 * Unix socket until it has been idle `idleMs`, is stopped, or gets SIGTERM; then it ends its servers.
 * One per user and config: a lock file makes a second holder hand its servers to the first.
 */
export async function runHolder(options: HolderOptions): Promise<void> {
  const config = await loadConfig({ configPath: options.configPath, env: options.env, cwd: options.cwd });
  if (options.protocol && options.protocol !== 'auto') config.protocolFlag = options.protocol;
  const names = options.servers.length > 0 ? options.servers : Object.keys(config.servers);
  const files = sessionFiles(sessionDirectory(options.env), sessionKey(config, options.env));
  if (!acquireLock(files.lock)) return joinRunningHolder(files.socket, names, announce);

  const log = createWriteStream(files.log, { flags: 'a', mode: 0o600 });
  const logLine = (text: string) => log.write(`${new Date().toISOString()} ${text}\n`);
  const registry = await createRegistry(config, { logger: { warn: logLine }, servers: 'none' });
  const reaper = startReaper(options.holderScript);
  const state: HolderState = { config, registry, held: new Set(), calls: new Map() };
  const startedAt = new Date();
  let lastUsed = Date.now();
  let requests = 0;
  // Who gets a server's stderr and log messages: the requests using that server right now.
  const using = new Map<string, Set<RequestContext>>();
  const toUsers = (server: string, event: string, fields: Record<string, unknown>) => {
    for (const context of using.get(server) ?? []) context.event(event, { server, ...fields });
  };

  const connect = async (wanted: string[]): Promise<ConnectFailure[]> => {
    const pending = wanted.filter((name) => !liveConnection(state, name));
    for (const name of pending) registry.servers.delete(name);
    if (pending.length === 0) return [];
    for (const name of pending) state.held.add(name);
    const { connections, failures } = await connectServers(registry, config, pending, {
      logger: { warn: logLine, info: logLine },
      env: options.env,
      hooks: { onStderr: (server, chunk) => toUsers(server, 'stderr', { text: chunk.toString('utf8') }), onServerLog: (server, params) => toUsers(server, 'log', { params }) },
    });
    for (const connection of connections) {
      const server = connection.stdio?.process;
      if (server) reaper.watch(server.pid, server.marker);
    }
    for (const failure of failures) logLine(`${failure.server}: ${failure.reason}`);
    return failures;
  };

  const status = (): HolderStatus => ({
    pid: process.pid,
    socket: files.socket,
    config: config.path,
    startedAt: startedAt.toISOString(),
    idleMs: Date.now() - lastUsed,
    idleTimeoutMs: options.idleMs,
    requests,
    holdsAll: holdsAll(state),
    servers: [...state.held].map((name) => {
      const server = registry.servers.get(name);
      const live = liveConnection(state, name);
      if (live) return { name, status: 'connected' as const, tools: live.tools.length, calls: state.calls.get(name) ?? 0, pid: live.stdio?.pid, protocol: live.protocolVersion };
      return { name, status: 'failed' as const, reason: server?.status === 'failed' ? server.failure.reason : 'the server is no longer running' };
    }),
  });

  let stopping: Promise<void> | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => serveSocket(socket));
  const stop = (why: string) =>
    (stopping ??= (async () => {
      logLine(`stopping: ${why}`);
      server.close();
      for (const socket of sockets) socket.destroy();
      await registry.close();
      for (const file of [files.socket, files.lock]) tryUnlink(file);
      reaper.close();
      log.end();
      process.exit(0);
    })());

  const serveSocket = (socket: Socket) => {
    sockets.add(socket);
    const running = new Map<number, AbortController>();
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      // A client that went away (Ctrl-C, killed) cancels what it asked for.
      for (const controller of running.values()) controller.abort(new ToolrunError('interrupted', 'the client went away'));
    });
    const write = (message: Record<string, unknown>) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
    };
    socket.on(
      'data',
      messageReader((message) => void handle(message as unknown as HolderRequest)),
    );
    const handle = async (request: HolderRequest) => {
      lastUsed = Date.now();
      if (request.op === 'cancel') {
        running.get(request.target as number)?.abort(new ToolrunError('interrupted', 'interrupted'));
        return write({ id: request.id, done: true, ok: true });
      }
      requests++;
      const controller = new AbortController();
      running.set(request.id, controller);
      const servers = new Set<string>();
      const context: RequestContext = {
        request,
        signal: controller.signal,
        event: (event, fields) => write({ ...fields, id: request.id, event }),
        uses: (name) => {
          servers.add(name);
          using.set(name, (using.get(name) ?? new Set()).add(context));
        },
      };
      try {
        const result = await dispatch(request, context);
        write({ ...result, id: request.id, done: true, ok: true });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        write({
          id: request.id,
          done: true,
          ok: false,
          error: {
            message: error instanceof ToolrunError ? error.message : describeThrown(error),
            code: typeof code === 'number' ? code : undefined,
            kind: error instanceof ToolrunError ? error.kind : undefined,
            data: (error as { data?: unknown }).data,
          },
        });
      } finally {
        running.delete(request.id);
        for (const name of servers) using.get(name)?.delete(context);
        lastUsed = Date.now();
      }
    };
  };

  const dispatch = async (request: HolderRequest, context: RequestContext): Promise<Record<string, unknown>> => {
    switch (request.op) {
      case 'status':
        return { status: status() };
      case 'exec':
        return execOp(state, context);
      case 'servers':
        return serversOp(state, context);
      case 'time':
        return timeOp(state, context);
      case 'request':
      case 'call-tool':
      case 'ping':
        return mcpOp(state, context);
      case 'add':
        return { failures: await connect((request.servers as string[] | undefined) ?? Object.keys(config.servers)), status: status() };
      case 'stop': {
        const stopNames = (request.servers as string[] | undefined) ?? [];
        const remaining = [...state.held].filter((name) => !stopNames.includes(name));
        if (stopNames.length === 0 || remaining.length === 0) {
          setImmediate(() => void stop(stopNames.length === 0 ? 'session stop' : `session stop ${stopNames.join(' ')}`));
          return { stopped: [...state.held], holderExits: true };
        }
        const stopped: string[] = [];
        for (const name of stopNames) {
          const connection = liveConnection(state, name);
          state.held.delete(name);
          registry.servers.delete(name);
          if (connection) {
            await connection.close();
            if (connection.stdio?.pid) reaper.forget(connection.stdio.pid);
            stopped.push(name);
          }
        }
        return { stopped, holderExits: false };
      }
      default:
        throw new ToolrunError('usage', `unknown request '${request.op}'`);
    }
  };

  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => {});
  process.on('uncaughtException', (error) => {
    logLine(`internal error: ${error.stack ?? error.message}`);
    void stop('internal error');
  });

  const failures = await connect(names);
  tryUnlink(files.socket);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(files.socket, () => resolve()));
  chmodSync(files.socket, 0o600);
  // Idle: checked often enough that the holder ends within a few seconds of its timeout.
  setInterval(
    () => {
      if (Date.now() - lastUsed >= options.idleMs && !stopping) void stop(`idle for ${Math.round(options.idleMs / 1000)} s`);
    },
    Math.min(5000, Math.max(100, options.idleMs / 4)),
  );
  logLine(`holding ${[...state.held].join(', ')} for ${config.path ?? '(default config)'}`);
  announce({ status: status(), failures });
}

/** The one line `session start` waits for, then stdout is closed: the holder writes nothing more there. */
function announce(ready: HolderReady): void {
  try {
    writeSync(1, `${JSON.stringify(ready)}\n`);
    closeSync(1);
  } catch {
    // started by hand, stdout closed: nothing to tell
  }
}
