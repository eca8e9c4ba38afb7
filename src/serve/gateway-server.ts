import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type ElicitResult,
  type CreateMessageResult,
} from '@modelcontextprotocol/sdk/types.js';
import { answerMalformedParamsWithInvalidParams } from './invalid-params.js';
import { incomingTrace } from '../trace/incoming-trace.js';
import { progressRelay } from './progress-relay.js';
import { rpcError } from './rpc-error.js';
import type { Gateway, GatewaySession } from './serve-gateway.js';

/**
 * One downstream client's MCP server over Streamable HTTP (the official 1.x SDK's server side, the
 * 2025 family, with sessions; stdio serves both eras: gateway-server-both-eras.ts), answering from the shared
 * gateway: tools, resources and prompts with their server's prefix, progress and cancellation of
 * each call relayed, and the upstreams' logs, list changes and questions (elicitation, sampling,
 * roots) passed to this client when it can answer them.
 */
export function createGatewayServer(gateway: Gateway, info: { name: string; version: string }): { server: Server; session: GatewaySession } {
  const server = new Server(info, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
    instructions: "toolrun serve: local tools under their own names, and each MCP server's tools, resources and prompts as SERVER__NAME.",
  });
  const capable = (what: 'elicitation' | 'sampling' | 'roots') => Boolean(server.getClientCapabilities()?.[what]);
  // The call in flight a relayed question belongs to: sent on that request's stream (without it the
  // SDK uses the standalone GET stream, which a client need not open, and the question is lost).
  let current: { requestId: string | number } | undefined;
  const session: GatewaySession = {
    toolsChanged: () => void server.sendToolListChanged().catch(() => {}),
    promptsChanged: () => void server.sendPromptListChanged().catch(() => {}),
    resourcesChanged: () => void server.sendResourceListChanged().catch(() => {}),
    log: (params) => void server.sendLoggingMessage(params as Parameters<Server['sendLoggingMessage']>[0]).catch(() => {}),
    elicit: async (params, signal) => {
      if (!capable('elicitation')) return { action: 'decline' } satisfies ElicitResult;
      return server.elicitInput(params as Parameters<Server['elicitInput']>[0], { signal, relatedRequestId: current?.requestId });
    },
    sample: async (params, signal) => {
      if (!capable('sampling')) throw rpcError(ErrorCode.InvalidRequest, 'the client of toolrun serve does not offer sampling');
      return server.createMessage(params, { signal, relatedRequestId: current?.requestId }) as Promise<CreateMessageResult>;
    },
    roots: async (signal) => (capable('roots') ? (await server.listRoots(undefined, { signal, relatedRequestId: current?.requestId })).roots : []),
  };

  // Every list is one page: a cursor can only be one this server never gave.
  const onePage = (params: { cursor?: unknown } | undefined) => {
    if (params?.cursor !== undefined) throw rpcError(ErrorCode.InvalidParams, 'Invalid cursor: the list has one page');
  };
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    onePage(request.params);
    return { tools: (await gateway.readyTools()).map((tool) => tool.definition) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { onProgress, flushed } = progressRelay(request.params._meta?.progressToken, (notification) => extra.sendNotification(notification));
    const call = { requestId: extra.requestId };
    current = call;
    try {
      const result = await gateway.callTool(session, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, {
        signal: extra.signal,
        onProgress,
        traceContext: incomingTrace(request.params._meta),
      });
      await flushed();
      return result;
    } finally {
      if (current === call) current = undefined;
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    onePage(request.params);
    return { resources: await gateway.lists.listResources() };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => {
    onePage(request.params);
    return { resourceTemplates: await gateway.lists.listResourceTemplates() };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => (await gateway.lists.readResource(request.params.uri, extra.signal, incomingTrace(request.params._meta))) as never);
  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    onePage(request.params);
    return { prompts: await gateway.lists.listPrompts() };
  });
  server.setRequestHandler(
    GetPromptRequestSchema,
    async (request, extra) => (await gateway.lists.getPrompt(request.params.name, request.params.arguments, extra.signal, incomingTrace(request.params._meta))) as never,
  );
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    await gateway.setLogLevel(request.params.level);
    return {};
  });
  answerMalformedParamsWithInvalidParams(server);
  gateway.sessions.add(session);
  server.onclose = () => gateway.sessions.delete(session);
  return { server, session };
}
