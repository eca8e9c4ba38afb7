import type { Client as LegacySdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { readVersion } from '../version.js';
import type { McpClient, McpRequestOptions } from './mcp-client.js';
import { settleTask } from './tasks/task-call.js';
import { readTask } from './tasks/task-state.js';

/** The 2026-07-28 tasks extension, declared on every request: the server decides when a call becomes a task. */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
import type { NegotiatingTransport } from './transports/negotiating-transport.js';
import type { EraChoice } from '../protocol/protocol-era.js';
import { clientCapabilitiesOf, installAskBack, type AskBack } from './ask-back.js';

/** Results are checked by toolrun itself (list-tools.ts), so the request's schema takes anything. */
/** The request `_meta` key that carries the log level in 2026-07-28. */
const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

const ANY_RESULT = { '~standard': { version: 1, vendor: 'toolrun', validate: (value: unknown) => ({ value }) } } as const;

/**
 * A 2026-07-28 connection through the v2 client (@modelcontextprotocol/client), loaded only for
 * such a server. It adopts the `server/discover` answer toolrun's probe already has (zero extra
 * round trips) and adds the per-request `_meta` envelope, and over HTTP the headers, itself.
 */
const v2Client = import('@modelcontextprotocol/client');
v2Client.catch(() => {});

/**
 * The v2 client's local errors carry string codes (SdkErrorCode); the rest of toolrun reads the v1
 * SDK's numbers (ErrorCode), so a timeout is a timeout in both eras (issue #19 item 6).
 */
const LEGACY_CODE_OF_SDK_ERROR: Record<string, number> = { REQUEST_TIMEOUT: -32001, CONNECTION_CLOSED: -32000 };

function inLegacyTerms(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const legacyCode = typeof code === 'string' ? LEGACY_CODE_OF_SDK_ERROR[code] : undefined;
  if (legacyCode === undefined) throw error;
  throw Object.assign(new Error((error as Error).message, { cause: error }), { code: legacyCode, data: (error as { data?: unknown }).data });
}

export async function connectModernClient(
  server: string,
  transport: NegotiatingTransport,
  discover: Record<string, unknown>,
  choice: EraChoice,
  options: { signal?: AbortSignal; timeout?: number; askBack?: AskBack; clientExtensions?: Record<string, Record<string, unknown>> },
): Promise<McpClient> {
  const { Client } = await v2Client;
  const client = new Client(
    { name: 'toolrun', version: readVersion() },
    { capabilities: { ...clientCapabilitiesOf(options.askBack), extensions: { [TASKS_EXTENSION]: {}, ...options.clientExtensions } } as never, versionNegotiation: { mode: { pin: choice.version } } },
  );
  // The same handlers answer an input_required round's embedded requests (the v2 client's multi-round-trip driver).
  installAskBack(
    (method, handler) => client.setRequestHandler(method, (request: { params?: unknown }, ctx: { mcpReq: { signal: AbortSignal } }) => handler(request, ctx.mcpReq.signal) as never),
    options.askBack,
    server,
  );
  client.onerror = () => {};
  transport.completeResultsByDefault = true;
  // The two SDKs' Transport types differ only in their generics; the wire contract is the same.
  await client.connect(transport as never, { prior: { kind: 'modern', discover: discover as never }, signal: options.signal, timeout: options.timeout });
  const definitions = new Map<string, Tool>();
  const requestOptions = (options?: McpRequestOptions) => options && { signal: options.signal, timeout: options.timeout };
  // 2026-07-28 has no logging/setLevel: the level travels in each request's _meta, and a server
  // sends no log for a request without it (logging.mdx, "Per-request log level").
  let logLevel: string | undefined;
  const withLogLevel = <P extends { _meta?: Record<string, unknown> }>(params: P): P => (logLevel === undefined ? params : { ...params, _meta: { ...params._meta, [LOG_LEVEL_META_KEY]: logLevel } });
  const callTool = async (name: string, args: Record<string, unknown>, options?: McpRequestOptions): Promise<CallToolResult> => {
    const startedAt = performance.now();
    // Every call is watched, progress asked for or not: its answer may be a task, found by the token.
    const watch = transport.watchProgress(options?.onProgress ?? (() => {}));
    try {
      const toolDefinition = definitions.get(name) as never;
      return (await client.callTool(withLogLevel({ name, arguments: args, _meta: { ...options?.traceContext, progressToken: watch.token } }), {
        ...requestOptions(options),
        toolDefinition,
      })) as unknown as CallToolResult;
    } catch (error) {
      // The tasks extension: the server answered with a task (resultType "task"), to be followed.
      const created = readTask(watch.createdTask());
      if (!created) return inLegacyTerms(error);
      return await settleTask(mcpClient, created, startedAt, options ?? {});
    } finally {
      watch.dispose();
    }
  };
  const instructions = (discover as { instructions?: unknown }).instructions;
  const mcpClient: McpClient = {
    choice,
    serverInfo: client.getServerVersion() as McpClient['serverInfo'],
    capabilities: client.getServerCapabilities() as McpClient['capabilities'],
    instructions: typeof instructions === 'string' ? instructions : client.getInstructions(),
    request: async (method, params, options) =>
      (await client.request({ method, params: withLogLevel(params ?? {}) } as never, ANY_RESULT as never, requestOptions(options)).catch(inLegacyTerms)) as Record<string, unknown>,
    callTool,
    ping: async (options) => {
      await client.discover(requestOptions(options)).catch(inLegacyTerms);
    },
    onNotification: (method, handler) => client.setNotificationHandler(method, (notification: { params?: unknown }) => handler((notification.params ?? {}) as Record<string, unknown>)),
    listen: async (filter, options) => {
      const subscription = await client.listen(filter, requestOptions(options)).catch(inLegacyTerms);
      return { honored: subscription.honoredFilter, ended: subscription.closed, close: () => subscription.close() };
    },
    setLogLevel: async (level) => {
      logLevel = level;
    },
    useToolDefinitions: (tools) => {
      definitions.clear();
      for (const tool of tools) definitions.set(tool.name, tool);
    },
    // @langchain/mcp-adapters calls callTool(params, resultSchema, options), the v1 way.
    adapterClient: {
      callTool: (params: { name: string; arguments?: Record<string, unknown> }, _schema?: unknown, options?: { signal?: AbortSignal; timeout?: number }) =>
        callTool(params.name, params.arguments ?? {}, options),
      readResource: (params: { uri: string }, options?: { signal?: AbortSignal; timeout?: number }) => client.readResource(params, options).catch(inLegacyTerms),
      listTools: async () => ({ tools: [...definitions.values()] }),
    } as unknown as LegacySdkClient,
    transport,
    close: () => client.close(),
  };
  return mcpClient;
}
