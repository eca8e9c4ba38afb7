import { chmodSync, closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { loadConfig } from '../config/load-config.js';
import { resolvePackaged } from '../cli-support/load-cli-config.js';
import { ToolrunError } from '../errors.js';
import { connectServers } from '../assembly/connect-servers.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { createRegistry } from '../assembly/create-registry.js';
import { registerMcpTools } from '../assembly/register-mcp-tools.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { AskBackFlags } from '../cli-support/cli-context.js';
import { CallCauseWatch } from './call-causes.js';
import { holderOwnAskBack } from './holder-ask-back.js';
import { relayingAskBack } from './relay-ask-back.js';
import { CrashRecords, describeCrash } from './crashed-servers.js';
import { acquireLock, joinRunningHolder, tryUnlink } from './holder-lock.js';
import { execOp, followOp, liveConnection, holdsAll, mcpOp, serversOp, stderrOp, timeOp, type HolderState, type RequestContext } from './holder-ops.js';
import type { HeldServerStatus, HolderRequest, HolderStatus } from './holder-protocol.js';
import { serveHolderSocket } from './holder-socket.js';
import { heldServerStatus } from './held-status.js';
import { startReaper } from './reaper.js';
import { sessionKey } from './session-key.js';
import { sessionDirectory, sessionFiles } from './session-paths.js';

export interface HolderOptions {
  configPath?: string;
  /** `--host`: the host's servers, loaded as the starting command loaded them (same key). */
  host?: string;
  terminalEnv?: boolean;
  protocol?: string;
  /** Servers to hold (empty: every configured one). */
  servers: string[];
  idleMs: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** `session start`'s ask-back flags: what the held servers are told is offered, and the answers when no command is attached. */
  askBack?: AskBackFlags;
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
  const config = options.host
    ? await (await import('../hosts/host-config.js')).loadHostConfig(options.host, options.env, options.cwd, { terminalEnv: options.terminalEnv })
    : await resolvePackaged(await loadConfig({ configPath: options.configPath, env: options.env, cwd: options.cwd }), options.env);
  if (options.protocol && options.protocol !== 'auto') config.protocolFlag = options.protocol;
  const names = options.servers.length > 0 ? options.servers : Object.keys(config.servers);
  const files = sessionFiles(sessionDirectory(options.env), sessionKey(config, options.env));
  if (!acquireLock(files.lock)) return joinRunningHolder(files.socket, names, announce);

  const log = createWriteStream(files.log, { flags: 'a', mode: 0o600 });
  const logLine = (text: string) => log.write(`${new Date().toISOString()} ${text}\n`);
  const registry = await createRegistry(config, { logger: { warn: logLine }, servers: 'none' });
  const reaper = startReaper(options.holderScript);
  const crashes = new CrashRecords();
  const causes = new CallCauseWatch();
  const restarting = new Map<string, Promise<ServerConnection | undefined>>();
  const state: HolderState = {
    config,
    registry,
    held: new Set(),
    calls: new Map(),
    causes,
    revive: (name) => revive(name),
    whyNotLive: (name) => whyNotLive(name),
    noteServed: (name) => crashes.noteServed(name),
  };
  const startedAt = new Date();
  let lastUsed = Date.now();
  let requests = 0;
  // Who gets a server's stderr and log messages: the requests using that server right now.
  const using = new Map<string, Set<RequestContext>>();
  const toUsers = (server: string, event: string, fields: Record<string, unknown>) => {
    for (const context of using.get(server) ?? []) context.event(event, { server, ...fields });
  };
  // A server's question goes to the command whose request on it started last (one, usually).
  const attachedTo = (server: string) => [...(using.get(server) ?? [])].at(-1);
  const ownAskBack = await holderOwnAskBack(options.askBack ?? { answer: [], root: [] }, config, options.env, options.cwd, logLine);
  const askBack = relayingAskBack(ownAskBack, attachedTo, logLine);

  const connect = async (wanted: string[]): Promise<ConnectFailure[]> => {
    const pending = wanted.filter((name) => !liveConnection(state, name));
    for (const name of pending) {
      const crashed = registry.servers.get(name);
      if (crashed?.status === 'connected') {
        if (crashed.connection.stdio?.pid) reaper.forget(crashed.connection.stdio.pid);
        // Ends what the crashed server left behind (its descendants).
        await crashed.connection.close().catch(() => undefined);
        causes.forget(name);
      }
      registry.servers.delete(name);
    }
    if (pending.length === 0) return [];
    for (const name of pending) state.held.add(name);
    const { connections, failures } = await connectServers(registry, config, pending, {
      // Calls are resolved and run from this registry; no LangChain tool is ever handed out here.
      adaptTools: false,
      logger: { warn: logLine, info: logLine },
      env: options.env,
      hooks: {
        askBack,
        onStderr: (server, chunk) => {
          causes.push(server, chunk);
          toUsers(server, 'stderr', { text: chunk.toString('utf8') });
        },
        onServerLog: (server, params) => toUsers(server, 'log', { params }),
      },
    });
    for (const connection of connections) {
      const server = connection.stdio?.process;
      if (!server) continue;
      reaper.watch(server.pid, server.marker);
      // Noticed when it happens (the log says when); `session list` and the next use read the rest.
      void server.drained().then(() => {
        const current = registry.servers.get(connection.name);
        if (stopping || server.stopping || current?.status !== 'connected' || current.connection !== connection) return;
        logLine(`${connection.name} (pid ${server.pid}) crashed: ${describeCrash(connection).reason}`);
      });
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
    offers: { sampling: Boolean(askBack.sample), roots: Boolean(askBack.roots) },
    servers: [...state.held].map((name) => serverStatus(name)),
  });

  const serverStatus = (name: string): HeldServerStatus => heldServerStatus(state, crashes, name);

  const whyNotLive = (name: string): string => {
    if (!state.held.has(name)) return `the holder does not hold '${name}'`;
    const server = serverStatus(name);
    return server.status === 'crashed' ? `the holder's '${name}' crashed: ${server.reason}` : `the holder's '${name}' is not connected: ${server.reason}`;
  };

  /** The held server's live connection; a crashed one is restarted first, once per cause (crashed-servers.ts). */
  const revive = async (name: string): Promise<ServerConnection | undefined> => {
    const live = liveConnection(state, name);
    if (live || !state.held.has(name) || stopping) return live;
    const entry = registry.servers.get(name);
    if (entry?.status !== 'connected') return undefined;
    const running = restarting.get(name);
    if (running) return running;
    const crash = describeCrash(entry.connection);
    if (!crashes.claimRestart(name, crash)) return undefined;
    const restart = (async () => {
      logLine(`${name}: restarting after a crash (${crash.reason})`);
      await connect([name]);
      const connection = liveConnection(state, name);
      // Its tools were registered again, last: the servers after it in the config are registered
      // after it again, so which server a plain tool name means stays the config's order.
      if (connection) {
        const later = Object.keys(config.servers).slice(Object.keys(config.servers).indexOf(name) + 1);
        for (const other of later) {
          const otherConnection = liveConnection(state, other);
          if (otherConnection) await registerMcpTools(registry, otherConnection);
        }
      }
      logLine(connection ? `${name}: restarted (pid ${connection.stdio?.pid ?? '-'})` : `${name}: the restart failed`);
      return connection;
    })();
    restarting.set(name, restart);
    try {
      return await restart;
    } finally {
      restarting.delete(name);
    }
  };

  let stopping: Promise<void> | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((socket) =>
    serveHolderSocket(socket, {
      sockets,
      using,
      dispatch: (request, context) => dispatch(request, context),
      touch: () => (lastUsed = Date.now()),
      countRequest: () => requests++,
      logLine,
    }),
  );
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
      case 'stderr':
        return stderrOp(state, context);
      case 'follow':
        return followOp(state, context);
      case 'request':
      case 'call-tool':
      case 'ping':
        return mcpOp(state, context);
      case 'add': {
        const wanted = (request.servers as string[] | undefined) ?? Object.keys(config.servers);
        for (const name of wanted) if (!liveConnection(state, name)) crashes.forget(name);
        return { failures: await connect(wanted), status: status() };
      }
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
          crashes.forget(name);
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
    // fd 1 is taken again at once (by /dev/null): left free, the next accepted connection would get
    // it, and libuv never closes fds 0–2 — that client could never be disconnected.
    openSync('/dev/null', 'w');
  } catch {
    // started by hand, stdout closed: nothing to tell
  }
}
