import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { answerMalformedParamsWithInvalidParams } from './invalid-params.js';
import { incomingTrace } from '../trace/incoming-trace.js';
import { progressRelay } from './progress-relay.js';
import { capQueuedOutput, MAX_QUEUED_OUTPUT_BYTES } from './queued-output.js';
import { rpcError } from './rpc-error.js';
import type { Gateway, GatewaySession } from './serve-gateway.js';

type V2Context = {
  mcpReq: {
    signal: AbortSignal;
    _meta?: { progressToken?: string | number; traceparent?: unknown; tracestate?: unknown };
    notify: (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;
    elicitInput: (params: never) => Promise<ElicitResult>;
    requestSampling: (params: never) => Promise<unknown>;
    send: (request: { method: string; params?: Record<string, unknown> }) => Promise<unknown>;
  };
};
type Params = Record<string, unknown> & { cursor?: unknown; _meta?: { progressToken?: string | number; traceparent?: unknown; tracestate?: unknown } };

/**
 * `toolrun serve` over stdio, in both protocol eras (SPEC §20), with the v2 SDK's server side: its
 * stdio entry reads the opening exchange (initialize, or a 2026-07-28 request), pins one instance
 * for the connection, and serves it in that era. The handlers are the same as over HTTP
 * (gateway-server.ts), asking the shared gateway. In 2026-07-28 a server cannot push a question to
 * the client in the middle of a call (it would answer input_required instead): an upstream's
 * elicitation is declined there, and sampling and roots are refused; in the 2025 era they are relayed.
 */
export async function serveBothErasOverStdio(
  gateway: Gateway,
  info: { name: string; version: string },
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
  onError: (error: Error) => void,
  onOverflow: (message: string) => void = (message) => onError(new Error(message)),
): Promise<void> {
  const [{ StdioServerTransport }, { PassThrough }] = await Promise.all([import('@modelcontextprotocol/server/stdio'), import('node:stream')]);
  // The SDK drops a line that is not JSON without a word: the lines that cannot be a message (they
  // do not start with "{") are said to onError, bytes passed on unchanged.
  const input = new PassThrough();
  let atLineStart = true;
  io.stdin.on('data', (chunk: Buffer) => {
    for (let index = 0; index < chunk.length;) {
      if (atLineStart) {
        const first = chunk[index]!;
        if (first !== 0x7b && first !== 0x0a && first !== 0x0d && first !== 0x20 && first !== 0x09) onError(new Error('a line from the client is not a JSON-RPC message (dropped)'));
      }
      const newline = chunk.indexOf(0x0a, index);
      if (newline === -1) {
        atLineStart = false;
        break;
      }
      atLineStart = true;
      index = newline + 1;
    }
    input.write(chunk);
  });
  io.stdin.once('end', () => input.end());
  const sessions: GatewaySession[] = [];
  let end = () => {};
  const stdout = capQueuedOutput(io.stdout, () => {
    onOverflow(`toolrun serve: the client has not read ${MAX_QUEUED_OUTPUT_BYTES >> 20} MB of answers; the session is closed and what was queued is dropped`);
    (io.stdout as NodeJS.WritableStream & { destroy?(): void }).destroy?.();
    end();
  });
  const closed = new Promise<void>((resolve) => {
    const handle = serveStdio(
      () => {
        const { server, session } = makeServer(gateway, info);
        sessions.push(session);
        return server;
      },
      { legacy: 'serve', transport: new StdioServerTransport(input as never, stdout as never), onerror: onError },
    );
    end = () => void handle.close().finally(resolve);
    io.stdin.once('end', end);
    io.stdin.once('close', end);
  });
  await closed;
  for (const session of sessions) gateway.sessions.delete(session);
}

function makeServer(gateway: Gateway, info: { name: string; version: string }): { server: Server; session: GatewaySession } {
  const server = new Server(info, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
    instructions: "toolrun serve: local tools under their own names, and each MCP server's tools, resources and prompts as SERVER__NAME.",
  });
  const modern = () => (server as unknown as { isModern?: () => boolean }).isModern?.() === true || (server as unknown as { _era?: string })._era === 'modern';
  const capable = (what: 'elicitation' | 'sampling' | 'roots') => Boolean(server.getClientCapabilities()?.[what]);
  // The call in flight whose context a relayed question is asked through (a 2025-era connection only).
  let current: V2Context | undefined;
  const session: GatewaySession = {
    toolsChanged: () => void server.sendToolListChanged?.().catch(() => {}),
    promptsChanged: () => void server.sendPromptListChanged?.().catch(() => {}),
    resourcesChanged: () => void server.sendResourceListChanged?.().catch(() => {}),
    log: (params) => void server.sendLoggingMessage?.(params as never).catch(() => {}),
    elicit: async (params) => {
      if (!current || modern() || !capable('elicitation')) return { action: 'decline' } satisfies ElicitResult;
      return current.mcpReq.elicitInput(params as never);
    },
    sample: async (params) => {
      if (!current || modern() || !capable('sampling')) throw rpcError(-32600, 'the client of toolrun serve does not take sampling requests here');
      return current.mcpReq.requestSampling(params as never);
    },
    roots: async () => (current && !modern() && capable('roots') ? ((await current.mcpReq.send({ method: 'roots/list' })) as { roots: Array<{ uri: string; name?: string }> }).roots : []),
  };
  const onePage = (params: Params | undefined) => {
    if (params?.cursor !== undefined) throw rpcError(-32602, 'Invalid cursor: the list has one page');
  };
  const handle = (method: string, run: (params: Params, ctx: V2Context) => Promise<unknown>) =>
    (server.setRequestHandler as unknown as (method: string, handler: (request: { params?: Params }, ctx: V2Context) => Promise<unknown>) => void)(method, (request, ctx) =>
      run(request.params ?? {}, ctx),
    );

  handle('tools/list', async (params) => {
    onePage(params);
    return { tools: (await gateway.readyTools()).map((tool) => tool.definition) };
  });
  handle('tools/call', async (params, ctx) => {
    if (typeof params.name !== 'string') throw rpcError(-32602, 'Invalid params for tools/call: name: expected a string');
    const { onProgress, flushed } = progressRelay(params._meta?.progressToken ?? ctx.mcpReq._meta?.progressToken, (notification) => ctx.mcpReq.notify(notification));
    current = ctx;
    try {
      const traceContext = incomingTrace(params._meta ?? ctx.mcpReq._meta);
      const result = await gateway.callTool(session, params.name, (params.arguments ?? {}) as Record<string, unknown>, { signal: ctx.mcpReq.signal, onProgress, traceContext });
      await flushed();
      return result;
    } finally {
      if (current === ctx) current = undefined;
    }
  });
  handle('resources/list', async (params) => {
    onePage(params);
    return { resources: await gateway.lists.listResources() };
  });
  handle('resources/templates/list', async (params) => {
    onePage(params);
    return { resourceTemplates: await gateway.lists.listResourceTemplates() };
  });
  handle('resources/read', async (params, ctx) => {
    if (typeof params.uri !== 'string') throw rpcError(-32602, 'Invalid params for resources/read: uri: expected a string');
    return gateway.lists.readResource(params.uri, ctx.mcpReq.signal, incomingTrace(params._meta ?? ctx.mcpReq._meta));
  });
  handle('prompts/list', async (params) => {
    onePage(params);
    return { prompts: await gateway.lists.listPrompts() };
  });
  handle('prompts/get', async (params, ctx) => {
    if (typeof params.name !== 'string') throw rpcError(-32602, 'Invalid params for prompts/get: name: expected a string');
    return gateway.lists.getPrompt(params.name, params.arguments as Record<string, unknown> | undefined, ctx.mcpReq.signal, incomingTrace(params._meta ?? ctx.mcpReq._meta));
  });
  answerMalformedParamsWithInvalidParams(server);
  gateway.sessions.add(session);
  return { server, session };
}
