import type { LockFilter } from '../lock/enforce.js';
import { ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { isConnectionLost } from '../mcp/connection-lost.js';
import type { ElicitParams, SamplingParams, ClientRoot } from '../mcp/ask-back.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { listToolsLeniently } from '../mcp/list-tools.js';
import type { ToolExecutor } from '../executor/tool-executor.js';
import type { Registry } from '../assembly/server-status.js';
import { maskKnownSecretsDeep, maskSecrets, maskSecretsDeep } from '../secrets/mask-secrets.js';
import { rpcError } from './rpc-error.js';
import { ServedLists } from './served-lists.js';
import { upstreamError } from './upstream-error.js';
import { isServed, servedName, splitServedName, type NameFilter, type ServedTool } from './serve-catalog.js';

/**
 * The shared half of `toolrun serve` (SPEC §20): the upstream servers, kept connected (a lost one is
 * started again at its next use, as a session holder does), the local tools, and what every
 * downstream session is told (list changes, logs). Each downstream client has its own SDK Server
 * (gateway-server.ts) that asks this for everything. Nothing of an upstream's configuration
 * (command, URL, headers, env, tokens) is ever in what it answers: errors are masked and name the
 * server only.
 */
export interface GatewaySession {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  log(params: Record<string, unknown>): void;
  elicit?(params: ElicitParams, signal: AbortSignal): Promise<unknown>;
  sample?(params: SamplingParams, signal: AbortSignal): Promise<unknown>;
  roots?(signal: AbortSignal): Promise<ClientRoot[]>;
}

export interface GatewayParts {
  registry: Registry;
  executor: ToolExecutor;
  connect(names: string[], options: { registerTools: boolean }): Promise<ConnectFailure[]>;
}

export interface GatewayOptions {
  servers: string[];
  separator: string;
  filter: NameFilter;
  timeoutMs?: number;
  /** Says something on stderr (a resource URI two upstreams list). */
  warn?: (message: string) => void;
  /** `serve --lock`: only the tools the lock pins, as pinned, are served (lock/enforce.ts). */
  lock?: LockFilter;
}

export class Gateway {
  readonly sessions = new Set<GatewaySession>();
  /** Which session's call is in flight on each upstream: the one a server's question goes to. */
  readonly #asking = new Map<string, Array<{ session: GatewaySession }>>();
  readonly #connecting = new Map<string, Promise<ConnectFailure[]>>();
  readonly #watched = new WeakSet<ServerConnection>();
  #tools: ServedTool[] = [];
  /** `--lock`: the served names held back, with why (for the error a call to one gets), and those already said on stderr. */
  readonly #heldBack = new Map<string, string>();
  readonly #saidHeldBack = new Set<string>();

  constructor(
    readonly parts: GatewayParts,
    readonly options: GatewayOptions,
  ) {}

  /** Connects every upstream (those that fail are reported, and tried again at their next use). */
  /**
   * Connects every upstream (those that fail are reported, and tried again at their next use). The
   * client's handshake is answered meanwhile (a client's first request must not wait for every
   * upstream to start: a 2026-07-28 probe would time out and fall back to 2025); what needs the
   * upstreams waits for `ready`.
   */
  start(): Promise<ConnectFailure[]> {
    const started = (async () => {
      this.#rebuild();
      const connecting = this.options.servers.length > 0 ? this.parts.connect(this.options.servers, { registerTools: false }) : Promise.resolve([]);
      // A call that comes in meanwhile waits for this start rather than starting a second copy of the server.
      for (const server of this.options.servers) this.#connecting.set(server, connecting);
      const failures = await connecting.finally(() => {
        for (const server of this.options.servers) if (this.#connecting.get(server) === connecting) this.#connecting.delete(server);
      });
      for (const server of this.options.servers) this.#watch(server);
      this.#rebuild();
      return failures;
    })();
    this.#ready = started.then(
      () => undefined,
      () => undefined,
    );
    return started;
  }

  #ready: Promise<void> = Promise.resolve();

  /** Resolves once the upstreams started at launch are connected (or failed). */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** The served tools; once `ready`, with every upstream started at launch. */
  /** Resources and prompts of every upstream, prefixed (served-lists.ts). */
  readonly lists = new ServedLists(this);

  tools(): ServedTool[] {
    return this.#tools;
  }

  async readyTools(): Promise<ServedTool[]> {
    await this.#ready;
    return this.#tools;
  }

  /** The local tools, then each connected server's, filtered; rebuilt when a server's list changes. */
  #rebuild(): void {
    const { separator, filter } = this.options;
    const served: ServedTool[] = [];
    for (const tool of this.parts.registry.list()) {
      if (tool.source === 'mcp' || !isServed(tool.definition.name, filter)) continue;
      const definition = { name: tool.definition.name, description: tool.definition.description, inputSchema: { type: 'object' as const, ...tool.definition.parameters } } as Tool;
      served.push({ name: tool.definition.name, definition, target: { kind: 'local', name: tool.definition.name } });
    }
    for (const server of this.options.servers) {
      const status = this.parts.registry.servers.get(server);
      if (status?.status !== 'connected') continue;
      for (const tool of status.connection.tools) {
        const name = servedName(server, tool.name, separator);
        if (!isServed(name, filter)) continue;
        const refusal = this.options.lock?.refusal(server, tool as never);
        if (refusal) {
          this.#heldBack.set(name, refusal);
          // Said once: per server when the lock does not pin it at all, else per tool and reason.
          const pinned = this.options.lock!.pins(server);
          const said = pinned ? `${name}\0${refusal}` : server;
          if (!this.#saidHeldBack.has(said)) {
            this.#saidHeldBack.add(said);
            this.options.warn?.(
              pinned
                ? `not serving ${name}: ${refusal}; review it, then re-pin with: toolrun lock --update ${server}`
                : `not serving ${server}'s tools: ${refusal}; pin it with: toolrun lock ${server}`,
            );
          }
          continue;
        }
        this.#heldBack.delete(name);
        served.push({ name, definition: { ...tool, name }, target: { kind: 'mcp', server, tool: tool.name } });
      }
    }
    this.#tools = served;
  }

  /** A connected upstream; a lost one is connected again first (one start at a time per server). */
  async connection(server: string): Promise<ServerConnection> {
    const { registry } = this.parts;
    // A start in progress (at launch, or another call's) is waited for, not raced by a second one.
    await this.#connecting.get(server)?.catch(() => undefined);
    const known = registry.servers.get(server);
    if (known?.status === 'connected' && isConnectionLost(known.connection)) {
      registry.servers.delete(server);
      // Lost can mean "closed its stdout but still running": ended, so it does not outlive its replacement.
      void known.connection.close().catch(() => {});
    }
    if (registry.servers.get(server)?.status !== 'connected') {
      registry.servers.delete(server);
      if (!this.#connecting.has(server))
        this.#connecting.set(
          server,
          this.parts.connect([server], { registerTools: false }).finally(() => this.#connecting.delete(server)),
        );
      await this.#connecting.get(server);
      this.#watch(server);
      // A server started again may list other tools than before: the clients are told.
      const before = JSON.stringify(this.#tools.map((tool) => tool.definition));
      this.#rebuild();
      if (JSON.stringify(this.#tools.map((tool) => tool.definition)) !== before) for (const session of this.sessions) session.toolsChanged();
    }
    const status = registry.servers.get(server);
    if (status?.status !== 'connected')
      throw rpcError(ErrorCode.InternalError, `MCP server '${server}' is unavailable: ${maskSecrets(status?.status === 'failed' ? status.failure.reason : 'it could not be started')}`);
    return status.connection;
  }

  /** Relays an upstream's list changes and logs to every session, once per connection. */
  #watch(server: string): void {
    const status = this.parts.registry.servers.get(server);
    if (status?.status !== 'connected' || this.#watched.has(status.connection)) return;
    const connection = status.connection;
    this.#watched.add(connection);
    connection.client.onNotification('notifications/tools/list_changed', () => {
      void listToolsLeniently(connection.client, { timeout: this.options.timeoutMs }).then(
        ({ tools }) => {
          connection.tools = tools;
          this.#rebuild();
          for (const session of this.sessions) session.toolsChanged();
        },
        () => {},
      );
    });
    connection.client.onNotification('notifications/prompts/list_changed', () => this.sessions.forEach((session) => session.promptsChanged()));
    connection.client.onNotification('notifications/resources/list_changed', () => this.sessions.forEach((session) => session.resourcesChanged()));
    connection.client.onNotification('notifications/message', (params: Record<string, unknown>) => {
      const logger = typeof params.logger === 'string' ? `${server}/${params.logger}` : server;
      // An upstream's log may name its own token or a URL with a password: masked like everything else that leaves.
      const masked = maskSecretsDeep({ ...params, logger }) as Record<string, unknown>;
      for (const session of this.sessions) session.log(masked);
    });
  }

  async callTool(
    session: GatewaySession,
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (progress: { progress: number; total?: number; message?: string }) => void; traceContext?: { traceparent: string; tracestate?: string } },
  ): Promise<CallToolResult> {
    // A call that comes before the upstreams started at launch are connected (a client may call without listing).
    if (!this.#tools.some((tool) => tool.name === name)) await this.#ready;
    let served = this.#tools.find((tool) => tool.name === name);
    // A tool of a server that is not connected (it failed to start, or to restart): that server is
    // tried again now, as the start-up warning promised, and the name looked up once more.
    const owner = served ? undefined : splitServedName(name, this.options.servers, this.options.separator);
    if (owner && this.parts.registry.servers.get(owner.server)?.status !== 'connected') {
      await this.connection(owner.server).catch(() => undefined);
      served = this.#tools.find((tool) => tool.name === name);
    }
    const heldBack = served ? undefined : this.#heldBack.get(name);
    if (heldBack) throw rpcError(ErrorCode.InvalidParams, `Tool ${name} is not served (toolrun serve --lock): ${heldBack}`);
    if (!served) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    if (served.target.kind === 'local') return this.#callLocal(served.target.name, args, options);
    const { server, tool } = served.target;
    const connection = await this.connection(server);
    // One entry per call (the same session may have two calls in flight on this server).
    const entry = { session };
    this.#asking.set(server, [...(this.#asking.get(server) ?? []), entry]);
    try {
      // The config's secrets (an env value with a secret's name, a header, a token) never reach the client, in a result either.
      return maskKnownSecretsDeep(
        await connection.client.callTool(tool, args, { signal: options.signal, timeout: this.options.timeoutMs, onProgress: options.onProgress, traceContext: options.traceContext }),
      ) as CallToolResult;
    } catch (error) {
      throw upstreamError(server, connection, error);
    } finally {
      this.#asking.set(
        server,
        (this.#asking.get(server) ?? []).filter((other) => other !== entry),
      );
    }
  }

  async #callLocal(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (progress: { progress: number; total?: number; message?: string }) => void },
  ): Promise<CallToolResult> {
    const envelope = await this.parts.executor.execute(name, args, { signal: options.signal, onProgress: options.onProgress, timeoutMs: this.options.timeoutMs, silent: true });
    if (!envelope.success) return { content: [{ type: 'text', text: maskSecrets(envelope.error) }], isError: true };
    const result = envelope.result;
    const text = typeof result === 'string' ? result : JSON.stringify(result);
    return { content: [{ type: 'text', text }], ...(typeof result === 'object' && result !== null && !Array.isArray(result) ? { structuredContent: result as Record<string, unknown> } : {}) };
  }

  /**
   * The session whose call is in flight on `server`, for a question that server asks (elicitation,
   * sampling, roots). An upstream's question carries nothing that ties it to one call, so it is
   * somebody's only when the calls in flight on that server are all one session's; with calls of two
   * clients in flight there, it is nobody's (undefined: declined), never guessed, so one client's
   * question never reaches another client.
   */
  askingSession(server: string): GatewaySession | undefined {
    const sessions = new Set((this.#asking.get(server) ?? []).map((entry) => entry.session));
    return sessions.size === 1 ? [...sessions][0] : undefined;
  }

  async setLogLevel(level: string): Promise<void> {
    await Promise.all(this.connected('logging').map((connection) => connection.client.setLogLevel(level as Parameters<ServerConnection['client']['setLogLevel']>[0]).catch(() => {})));
  }

  /** The connected upstreams that offer `capability`, in the configured order. */
  connected(capability: 'resources' | 'prompts' | 'logging'): ServerConnection[] {
    return this.options.servers.flatMap((server) => {
      const status = this.parts.registry.servers.get(server);
      return status?.status === 'connected' && status.connection.capabilities?.[capability] ? [status.connection] : [];
    });
  }
}
