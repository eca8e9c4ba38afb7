import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { EraChoice } from '../protocol/protocol-era.js';
import type { NegotiatingTransport } from './transports/negotiating-transport.js';
import type { TaskCallOptions } from '../registry/tool-types.js';
import { REQUESTED_TASK_TTL_MS, runsAsTask, settleTask } from './tasks/task-call.js';
import { readTask } from './tasks/task-state.js';

/** Options of one request: its deadline, Ctrl-C, and progress updates (asked for on every call). */
export interface McpRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** tools/call: how a call that runs as a task is driven (SPEC §15; tasks/task-call.ts). */
  task?: TaskCallOptions;
  /**
   * tools/call: the trace context to send instead of the command's, in `_meta` (serve continues its
   * client's trace upstream: trace/incoming-trace.ts). A request that carries one keeps it (run-trace.ts).
   */
  traceContext?: { traceparent: string; tracestate?: string };
}

/** A server notification toolrun shows: log messages (`notifications/message`). */
export type NotificationHandler = (params: Record<string, unknown>) => void;

/** The server notifications toolrun listens for: logs, a watched resource's updates, list changes. */
export type WatchedNotification =
  'notifications/message' | 'notifications/resources/updated' | 'notifications/tools/list_changed' | 'notifications/resources/list_changed' | 'notifications/prompts/list_changed';

/** What a 2026-07-28 `subscriptions/listen` stream asks for (spec: basic/patterns/subscriptions, "Notification Filter"). */
export interface ListenFilter {
  resourceSubscriptions?: string[];
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
}

/** An open `subscriptions/listen` stream; its notifications reach the onNotification handlers. */
export interface ListenStream {
  /** The part of the filter the server agreed to (its acknowledgment). */
  readonly honored: ListenFilter;
  /** How it ended: `local` (close() or the signal), `graceful` (the server ended it), `remote` (the connection dropped). */
  readonly ended: Promise<'local' | 'graceful' | 'remote'>;
  /** Ends it on the server (notifications/cancelled for the listen request); idempotent. */
  close(): Promise<void>;
}

import type { LogLevel } from '../protocol/log-levels.js';
export { LOG_LEVELS, type LogLevel } from '../protocol/log-levels.js';

/**
 * What toolrun asks of a connected server, the same in both protocol eras: the 2025 family is
 * spoken by @modelcontextprotocol/sdk 1.x (this file), 2026-07-28 by the v2 client, loaded only
 * for such a server (modern-client.ts). Results are the protocol's, unchanged.
 */
export interface McpClient {
  readonly choice: EraChoice;
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  /** Any request; the result as the server sent it (list-tools.ts checks each tool itself). */
  request(method: string, params: Record<string, unknown> | undefined, options?: McpRequestOptions): Promise<Record<string, unknown>>;
  /** tools/call, with structuredContent checked against the tool's outputSchema. */
  callTool(name: string, args: Record<string, unknown>, options?: McpRequestOptions): Promise<CallToolResult>;
  /** A liveness round trip: ping (legacy), server/discover (modern, which has no ping). */
  ping(options?: McpRequestOptions): Promise<void>;
  onNotification(method: WatchedNotification, handler: NotificationHandler): void;
  /**
   * 2026-07-28 only (the 2025 family subscribes with resources/subscribe instead): opens a
   * `subscriptions/listen` stream, resolved once the server acknowledged it.
   */
  listen?(filter: ListenFilter, options?: McpRequestOptions): Promise<ListenStream>;
  /**
   * The least severe log level the server should send: `logging/setLevel` in the 2025 family; in
   * 2026-07-28 (which removed that request) `io.modelcontextprotocol/logLevel` in every later request's `_meta`.
   */
  setLogLevel(level: LogLevel, options?: McpRequestOptions): Promise<void>;
  /** The tools listed, so calls can check their outputSchema (and, over HTTP, mirror their params). */
  useToolDefinitions(tools: Tool[]): void;
  /** The client object @langchain/mcp-adapters is given (it calls callTool and readResource, v1 style). */
  readonly adapterClient: Client;
  /** The transport the client speaks over (over HTTP, the one whose session close() must end first); none for a holder's proxy. */
  readonly transport?: NegotiatingTransport;
  close(): Promise<void>;
}

/** A v1 (2025-era) SDK client, connected. */
export async function legacyClient(client: Client, choice: EraChoice, transport: NegotiatingTransport): Promise<McpClient> {
  const types = await import('@modelcontextprotocol/sdk/types.js');
  const { ResultSchema } = types;
  // The v1 SDK routes notifications by schema, not by method name.
  const notificationSchemas = {
    'notifications/message': types.LoggingMessageNotificationSchema,
    'notifications/resources/updated': types.ResourceUpdatedNotificationSchema,
    'notifications/tools/list_changed': types.ToolListChangedNotificationSchema,
    'notifications/resources/list_changed': types.ResourceListChangedNotificationSchema,
    'notifications/prompts/list_changed': types.PromptListChangedNotificationSchema,
  } as const;
  const definitions = new Map<string, Tool>();
  const mcpClient: McpClient = {
    choice,
    serverInfo: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    request: async (method, params, options) => (await client.request({ method, params }, ResultSchema, sdkOptions(options))) as Record<string, unknown>,
    callTool: (name, args, options) =>
      withProgress(transport, options, async (meta) => {
        // A task-augmented call (2025-11-25 experimental tasks): the SDK's callTool refuses those.
        if (runsAsTask(client.getServerCapabilities(), definitions.get(name), options?.task)) return callAsTask(mcpClient, name, args, meta, options);
        return (await client.callTool({ name, arguments: args, ...meta }, undefined, sdkOptions(options))) as CallToolResult;
      }),
    ping: async (options) => {
      await client.ping(sdkOptions(options));
    },
    onNotification: (method, handler) =>
      client.setNotificationHandler(notificationSchemas[method] as typeof types.LoggingMessageNotificationSchema, (notification) => handler((notification.params ?? {}) as Record<string, unknown>)),
    setLogLevel: async (level, options) => {
      await client.request({ method: 'logging/setLevel', params: { level } }, ResultSchema, sdkOptions(options));
    },
    useToolDefinitions: (tools) => {
      cacheToolMetadata(client, tools);
      definitions.clear();
      for (const tool of tools) definitions.set(tool.name, tool);
    },
    adapterClient: client,
    transport,
    close: () => client.close(),
  };
  return mcpClient;
}

/** tools/call with a `task` param; the CreateTaskResult's task is followed (or named, with --no-wait). */
async function callAsTask(client: McpClient, name: string, args: Record<string, unknown>, meta: object, options: McpRequestOptions | undefined): Promise<CallToolResult> {
  const startedAt = performance.now();
  const answer = await client.request('tools/call', { name, arguments: args, ...meta, task: { ttl: REQUESTED_TASK_TTL_MS } }, options && { signal: options.signal, timeout: options.timeout });
  const created = readTask(answer.task);
  // A server may answer a task-augmented call at once: that is the result.
  if (!created) return answer as CallToolResult;
  return settleTask(client, created, startedAt, options ?? {});
}

/** The SDK's request options (progress is toolrun's own: withProgress). */
export function sdkOptions(options: McpRequestOptions | undefined) {
  return options && { signal: options.signal, timeout: options.timeout };
}

/** Runs a request with a progress token of toolrun's when a progress handler is given. */
export async function withProgress<T>(transport: NegotiatingTransport, options: McpRequestOptions | undefined, run: (meta: { _meta?: Record<string, unknown> }) => Promise<T>): Promise<T> {
  const onProgress = options?.onProgress;
  const trace = options?.traceContext;
  if (!onProgress) return run(trace ? { _meta: { ...trace } } : {});
  const watch = transport.watchProgress(onProgress);
  try {
    return await run({ _meta: { ...trace, progressToken: watch.token } });
  } finally {
    watch.dispose();
  }
}

/**
 * The v1 SDK checks a call's structuredContent against the tool's outputSchema from the list it
 * cached in listTools; toolrun lists tools itself (leniently), so it hands the list over the same way.
 */
function cacheToolMetadata(client: Client, tools: Tool[]): void {
  (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void }).cacheToolMetadata?.call(client, tools);
}
