import type { ApiItem } from '../snapshot/snapshot-types.js';
import { fitsUriTemplate } from '../text/uri-template-match.js';
import { MOCK_PROTOCOL_VERSIONS, type MockBook, type RecordedExchange } from './mock-book.js';

export type MockAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

export type MatchMode = 'ordered' | 'args';

/** How a mock answers one request; undefined for a notification (nothing to answer). */
export type Responder = (method: string, params: Record<string, unknown> | undefined) => Promise<MockAnswer>;

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;
/** An unrecorded request is named in the error, its parameters cut to this: the message stays one readable line. */
const SHOWN_PARAMS = 300;

export function createResponder(book: MockBook, match: MatchMode): Responder {
  if (book.kind === 'recording') return recordingResponder(book.exchanges, match);
  // The argument checker (Ajv) loads once the first answers are out, so it is ready before the first
  // call instead of making that call ~100 ms slow (and the mock slow to start if loaded up front).
  if (book.api.tools.length > 0) setTimeout(() => void import('../schema/compile-schema.js').catch(() => {}), 20).unref();
  return snapshotResponder(book);
}

/**
 * A recording's answers. `args`: a request gets the answer recorded for the same method and
 * parameters (`_meta` aside), the next one each time the same request comes again, the last one
 * once they are used up. `ordered`: the Nth request of a method gets the Nth answer recorded for it,
 * whatever its parameters. `initialize` and `ping` always answer.
 */
function recordingResponder(exchanges: RecordedExchange[], match: MatchMode): Responder {
  const queues = new Map<string, RecordedExchange[]>();
  const used = new Map<string, number>();
  const keyOf = (method: string, params: Record<string, unknown> | undefined) => (match === 'ordered' || method === 'initialize' ? method : `${method} ${shownParams(params)}`);
  for (const exchange of exchanges) {
    const key = keyOf(exchange.method, exchange.params);
    queues.set(key, [...(queues.get(key) ?? []), exchange]);
  }
  const methods = new Set(exchanges.map((exchange) => exchange.method));
  const discover = exchanges.find((exchange) => exchange.method === 'server/discover');
  return async (method, params) => {
    const queue = queues.get(keyOf(method, params));
    if (queue) {
      const index = used.get(keyOf(method, params)) ?? 0;
      used.set(keyOf(method, params), index + 1);
      const { answer } = queue[Math.min(index, queue.length - 1)]!;
      return 'error' in answer ? { error: answer.error } : { result: (answer.result ?? {}) as Record<string, unknown> };
    }
    if (method === 'ping') return { result: {} };
    if (method === 'initialize' && discover && 'result' in discover.answer) {
      // A 2026-07-28 recording asked in the 2025 way: the server it recorded, introduced the 2025 way.
      const found = discover.answer.result as { capabilities?: unknown; serverInfo?: unknown; instructions?: unknown; _meta?: Record<string, unknown> };
      const serverInfo = found.serverInfo ?? found._meta?.['io.modelcontextprotocol/serverInfo'] ?? { name: 'toolrun-mock', version: '0.0.0' };
      return {
        result: { protocolVersion: negotiate(params), capabilities: found.capabilities ?? {}, serverInfo, ...(typeof found.instructions === 'string' ? { instructions: found.instructions } : {}) },
      };
    }
    const shown = shownParams(params);
    if (!methods.has(method)) return { error: { code: METHOD_NOT_FOUND, message: `toolrun mock: the recording has no ${method} request to answer from` } };
    return { error: { code: INVALID_PARAMS, message: `toolrun mock: the recording has no answer to ${method} with ${shown.length > SHOWN_PARAMS ? `${shown.slice(0, SHOWN_PARAMS)}…` : shown}` } };
  };
}

/** A snapshot's API answered: lists as listed, calls with generated results that say they are a mock's. */
function snapshotResponder(book: Extract<MockBook, { kind: 'snapshot' }>): Responder {
  const { api, mockResults } = book;
  const tools = new Map(api.tools.map((tool) => [String(tool.name), tool]));
  const resources = new Map(api.resources.map((resource) => [String(resource.uri), resource]));
  const prompts = new Map(api.prompts.map((prompt) => [String(prompt.name), prompt]));
  const capabilities = {
    ...(api.tools.length > 0 ? { tools: { listChanged: true } } : {}),
    ...(api.resources.length + api.resourceTemplates.length > 0 ? { resources: {} } : {}),
    ...(api.prompts.length > 0 ? { prompts: {} } : {}),
  };
  const invalid = (message: string): MockAnswer => ({ error: { code: INVALID_PARAMS, message } });
  return async (method, params = {}) => {
    // Every list fits one page: a cursor can only be one the mock never gave.
    if (method.endsWith('/list') && params.cursor !== undefined) return invalid(`Invalid cursor: ${method} has one page`);
    switch (method) {
      case 'initialize':
        return { result: { protocolVersion: negotiate(params), capabilities, serverInfo: { name: api.server.name, version: '0.0.0-mock' } } };
      case 'ping':
        return { result: {} };
      case 'tools/list':
        return capabilities.tools ? { result: { tools: api.tools } } : notFound(method);
      case 'resources/list':
        return capabilities.resources ? { result: { resources: api.resources } } : notFound(method);
      case 'resources/templates/list':
        return capabilities.resources ? { result: { resourceTemplates: api.resourceTemplates } } : notFound(method);
      case 'prompts/list':
        return capabilities.prompts ? { result: { prompts: api.prompts } } : notFound(method);
      case 'tools/call': {
        if (!capabilities.tools) return notFound(method);
        if (typeof params.name !== 'string') return invalid('tools/call needs "name"');
        const tool = tools.get(params.name);
        if (!tool) return invalid(`Unknown tool: ${params.name}`);
        return { result: await callResult(tool, (params.arguments ?? {}) as Record<string, unknown>, mockResults) };
      }
      case 'resources/read': {
        if (!capabilities.resources) return notFound(method);
        if (typeof params.uri !== 'string') return invalid('resources/read needs "uri"');
        const resource = resources.get(params.uri) ?? (api.resourceTemplates.some((template) => fitsUriTemplate(String(template.uriTemplate), params.uri as string)) ? { uri: params.uri } : undefined);
        if (!resource) return { error: { code: RESOURCE_NOT_FOUND, message: `Resource not found: ${params.uri}`, data: { uri: params.uri } } };
        const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : 'text/plain';
        return { result: { contents: [{ uri: params.uri, mimeType, text: `toolrun mock: the contents of ${params.uri}` }] } };
      }
      case 'prompts/get': {
        if (!capabilities.prompts) return notFound(method);
        if (typeof params.name !== 'string') return invalid('prompts/get needs "name"');
        const prompt = prompts.get(params.name);
        if (!prompt) return invalid(`Unknown prompt: ${params.name}`);
        const given = (params.arguments ?? {}) as Record<string, unknown>;
        const missing = (Array.isArray(prompt.arguments) ? (prompt.arguments as Array<{ name: string; required?: boolean }>) : []).filter(
          (argument) => argument.required && given[argument.name] === undefined,
        );
        if (missing.length > 0) return invalid(`prompt ${params.name} needs ${missing.map((argument) => argument.name).join(', ')}`);
        return {
          result: {
            ...(typeof prompt.description === 'string' ? { description: prompt.description } : {}),
            messages: [{ role: 'user', content: { type: 'text', text: `toolrun mock: prompt ${params.name} with ${JSON.stringify(given)}` } }],
          },
        };
      }
      default:
        return notFound(method);
    }
  };
}

/** A tool's mock result: the config's mock_response, else output valid against its outputSchema, else a text saying what was called. */
async function callResult(tool: ApiItem, args: Record<string, unknown>, mockResults: Map<string, unknown>): Promise<Record<string, unknown>> {
  const name = String(tool.name);
  if (typeof tool.inputSchema === 'object' && tool.inputSchema !== null) {
    const { compileArgsValidator } = await import('../schema/compile-schema.js');
    const verdict = compileArgsValidator(tool.inputSchema as Record<string, unknown>)(args);
    if (!verdict.valid) {
      const first = verdict.errors[0] as { instancePath?: string; message?: string } | undefined;
      return { content: [{ type: 'text', text: `Invalid arguments for tool ${name}: ${first?.instancePath || '(root)'} ${first?.message ?? 'invalid'}` }], isError: true };
    }
  }
  if (mockResults.has(name)) {
    const response = mockResults.get(name);
    return { content: [{ type: 'text', text: typeof response === 'string' ? response : JSON.stringify(response) }] };
  }
  if (typeof tool.outputSchema === 'object' && tool.outputSchema !== null) {
    const { generateArguments } = await import('../conform/generate-arguments.js');
    const generated = generateArguments(tool.outputSchema);
    if ('arguments' in generated) return { content: [{ type: 'text', text: JSON.stringify(generated.arguments) }], structuredContent: generated.arguments };
  }
  return { content: [{ type: 'text', text: `toolrun mock: ${name} called with ${JSON.stringify(args)}` }] };
}

function notFound(method: string): MockAnswer {
  return { error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } };
}

/** The client's revision when the mock speaks it, else the newest it does (the client then decides). */
function negotiate(params: Record<string, unknown> | undefined): string {
  const asked = params?.protocolVersion;
  return typeof asked === 'string' && MOCK_PROTOCOL_VERSIONS.includes(asked) ? asked : MOCK_PROTOCOL_VERSIONS[0]!;
}

/**
 * A request's parameters as the recording is searched for them: `_meta` aside, and absent, null and
 * `{}` the same (JSON-RPC 2.0 §4: params MAY be omitted; MCP's list requests take only optional
 * fields, so one client sends `tools/list` with `params: {}` and another with none: the same request).
 */
function shownParams(params: Record<string, unknown> | undefined): string {
  if (!params) return '{}';
  const { _meta: _dropped, ...rest } = params;
  return canonical(rest);
}

/** JSON with sorted keys: the same parameters in another key order are the same request. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
