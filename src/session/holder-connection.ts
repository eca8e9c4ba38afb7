import type { Client as LegacySdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { resolveServer, type ServerSpec } from '../config/resolve-server.js';
import type { McpClient, McpRequestOptions, NotificationHandler } from '../mcp/mcp-client.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { formatServerLog } from '../output/format-server-log.js';
import type { AskBack } from '../mcp/ask-back.js';
import { answerHolderAsk } from './answer-holder-ask.js';
import type { HolderClient } from './holder-client.js';
import type { HolderEvent } from './holder-protocol.js';

/**
 * Connections that stand in for a holder's servers (SPEC §12): the same ServerConnection the
 * commands use (list, resources, prompts, time), whose client forwards each request to the holder,
 * which makes it on its live connection. Closing one leaves the holder's server running.
 */
export async function holderConnections(cli: CliContext, config: ToolrunConfig, holder: HolderClient, holderPid: number, names: string[]): Promise<ServerConnection[]> {
  const started = performance.now();
  const reply = await holder.request('servers', { names });
  const ms = performance.now() - started;
  const servers = reply.servers as Array<Omit<ServerConnection, 'spec' | 'client' | 'transport' | 'close' | 'name'> & { name: string }>;
  return servers.flatMap((server) => {
    let spec: ServerSpec;
    try {
      spec = resolveServer(config, config.servers[server.name]!, cli.env);
    } catch {
      return [];
    }
    const client = proxyClient(cli, holder, server.name, server);
    return [{ ...server, spec, client, transport: undefined as never, viaSession: { holderPid, ms }, close: async () => undefined }];
  });
}

function proxyClient(cli: CliContext, holder: HolderClient, server: string, info: Pick<ServerConnection, 'era' | 'serverInfo' | 'capabilities' | 'instructions' | 'tools'>): McpClient {
  let logHandler: NotificationHandler | undefined;
  let askBack: Promise<AskBack> | undefined;
  const commandAskBack = () => (askBack ??= import('../cli-support/ask-back-for.js').then(({ askBackFor }) => askBackFor(cli)));
  const onEvent = (options: McpRequestOptions | undefined) => (event: HolderEvent) => {
    if (event.event === 'ask') answerHolderAsk(holder, event, commandAskBack, options?.signal ?? cli.signal);
    else if (event.event === 'progress') options?.onProgress?.(event.progress as { progress: number; total?: number; message?: string });
    else if (event.event === 'log') {
      if (logHandler) logHandler(event.params as Record<string, unknown>);
      else {
        const { line, isWarning } = formatServerLog(server, event.params as Record<string, unknown>);
        if (isWarning) cli.terminal.warn(line);
        else cli.terminal.info(line);
      }
    } else if (event.event === 'stderr' && cli.globals.verbose) cli.terminal.serverStderr(server, Buffer.from(String(event.text)));
  };
  const send = async (op: 'request' | 'call-tool' | 'ping', fields: Record<string, unknown>, options?: McpRequestOptions) =>
    holder.request(op, { ...fields, server, timeoutMs: options?.timeout }, { signal: options?.signal, onEvent: onEvent(options) });
  const request = async (method: string, params: Record<string, unknown> | undefined, options?: McpRequestOptions) =>
    (await send('request', { method, params }, options)).result as Record<string, unknown>;
  // A task's how (as a task, wait or not) goes to the holder; its callbacks stay here (the holder sends no task events).
  const callTool = async (name: string, args: Record<string, unknown>, options?: McpRequestOptions) =>
    (await send('call-tool', { name, args, ...(options?.task && { task: { asTask: options.task.asTask, wait: options.task.wait } }) }, options)).result as CallToolResult;
  return {
    choice: info.era,
    serverInfo: info.serverInfo,
    capabilities: info.capabilities,
    instructions: info.instructions,
    request,
    callTool,
    ping: async (options) => {
      await send('ping', {}, options);
    },
    // The holder forwards log messages only; other notifications are not carried (yet).
    onNotification: (method, handler) => {
      if (method === 'notifications/message') logHandler = handler;
    },
    // Commands with --log-level start their servers here rather than change a shared server's level (open-tools.ts).
    setLogLevel: async (level, options) => {
      await request('logging/setLevel', { level }, options);
    },
    useToolDefinitions: () => {},
    // @langchain/mcp-adapters calls these the v1 way; the tool list is the holder's.
    adapterClient: {
      callTool: (params: { name: string; arguments?: Record<string, unknown> }, _schema?: unknown, options?: McpRequestOptions) => callTool(params.name, params.arguments ?? {}, options),
      readResource: (params: { uri: string }, options?: McpRequestOptions) => request('resources/read', params, options),
      listTools: async () => ({ tools: info.tools as Tool[] }),
    } as unknown as LegacySdkClient,
    close: async () => {},
  };
}
