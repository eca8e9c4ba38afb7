import type { ScriptedServer, ScriptHandler } from './fake-channel.js';

const invalid = (message: string) => ({ error: { code: -32602, message } });

export const ECHO_TOOL = {
  name: 'echo',
  description: 'Echoes its text',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
};
export const SLOW_TOOL = { name: 'slow.job', description: 'Reports progress, honours cancellation', inputSchema: { type: 'object', properties: {} } };

/** A scripted server that passes every content check (2025-11-25, two pages of tools). */
export function cleanServer(overrides: Record<string, ScriptHandler> = {}, rest: Partial<ScriptedServer> = {}): ScriptedServer {
  return {
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
    ...rest,
    handlers: {
      ping: () => ({ result: {} }),
      'tools/list': (params) => {
        if (params.cursor === undefined) return { result: { tools: [ECHO_TOOL], nextCursor: 'page-2' } };
        if (params.cursor === 'page-2') return { result: { tools: [SLOW_TOOL] } };
        return invalid('Invalid cursor');
      },
      'tools/call': async (params, call) => {
        if (typeof params.name !== 'string') return invalid('name is required');
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        if (params.name === 'echo') return { result: { content: [{ type: 'text', text: String(args.text) }], structuredContent: { echoed: String(args.text) } } };
        if (params.name === 'slow.job') {
          const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
          if (token !== undefined) {
            call.emit('notifications/progress', { progressToken: token, progress: 1, total: 2 });
            call.emit('notifications/progress', { progressToken: token, progress: 2, total: 2 });
          }
          const cancelled = await Promise.race([call.cancelled.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20))]);
          return cancelled ? undefined : { result: { content: [{ type: 'text', text: 'done' }] } };
        }
        return invalid(`Unknown tool: ${params.name}`);
      },
      'resources/list': () => ({ result: { resources: [{ uri: 'mem:///a', name: 'a' }] } }),
      'resources/read': (params) => {
        if (typeof params.uri !== 'string') return invalid('uri is required');
        if (params.uri !== 'mem:///a') return { error: { code: -32002, message: 'Resource not found' } };
        return { result: { contents: [{ uri: 'mem:///a', text: 'A' }] } };
      },
      'resources/templates/list': () => ({ result: { resourceTemplates: [{ uriTemplate: 'mem:///{name}', name: 'by-name' }] } }),
      'prompts/list': () => ({ result: { prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }] }] } }),
      'prompts/get': (params) => {
        if (params.name !== 'greet') return invalid(`Unknown prompt: ${String(params.name)}`);
        const who = (params.arguments as Record<string, unknown> | undefined)?.who;
        if (typeof who !== 'string') return invalid('Missing required argument: who');
        return { result: { messages: [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }] } };
      },
      'completion/complete': () => ({ result: { completion: { values: [] } } }),
      'logging/setLevel': () => ({ result: {} }),
      ...overrides,
    },
  };
}

/** A server that answers every method, known or not, with an empty result. */
export const answersEverything: ScriptHandler = () => ({ result: {} });
