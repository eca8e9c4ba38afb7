import { rpcError } from './rpc-error.js';

type Issue = { path?: Array<string | number>; message?: string };
type Handler = (request: unknown, context: unknown) => Promise<unknown>;

/**
 * Both SDKs' servers check a spec request against its schema before the handler runs, and one that
 * does not fit (tools/call without "name") fails with -32603 and zod's issues: the 1.x SDK throws
 * the ZodError (its `issues`), the v2 SDK an Error whose message is the issues as JSON. JSON-RPC
 * says -32602 (Invalid params), and MCP clients and `mcp conform` expect it: each handler of the
 * server is wrapped so such a failure is -32602 with one line naming the parameter. Errors that
 * carry a code (the handlers' own) keep it.
 */
export function answerMalformedParamsWithInvalidParams(server: object): void {
  const handlers = (server as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, context) => {
      try {
        return await handler(request, context);
      } catch (error) {
        const first = schemaIssues(error)?.[0];
        if (!first) throw error;
        throw rpcError(-32602, `Invalid params for ${method}: ${first.path?.join('.') ?? '(params)'}: ${first.message ?? 'malformed'}`);
      }
    });
  }
}

function schemaIssues(error: unknown): Issue[] | undefined {
  if (!(error instanceof Error) || typeof (error as { code?: unknown }).code === 'number') return undefined;
  const issues = (error as { issues?: unknown }).issues;
  if (Array.isArray(issues)) return issues as Issue[];
  if (!error.message.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(error.message);
    return Array.isArray(parsed) ? (parsed as Issue[]) : undefined;
  } catch {
    return undefined;
  }
}
