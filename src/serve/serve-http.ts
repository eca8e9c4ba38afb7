import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * `toolrun serve --http`: Streamable HTTP on /mcp, one SDK server per session (made by `newServer`
 * at each `initialize`). Before the SDK sees a request: the bearer token when `--token-env` set one
 * (401 with a Bearer challenge otherwise, compared in constant time), and the Origin, which must be
 * loopback (403 otherwise: the DNS-rebinding guard the spec asks servers for).
 */
export function serveOverHttp(newServer: () => Server, options: { host: string; port: number; token?: string }): Promise<{ http: HttpServer; url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);

  const http = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: `toolrun serve: ${(error as Error).message}` } });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if ((request.url ?? '/').split('?')[0] !== '/mcp') return json(response, 404, { error: 'not found: toolrun serve answers on /mcp' });
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="toolrun serve"');
      return json(response, 401, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized: send the bearer token toolrun serve was started with (--token-env)' } });
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin)) return json(response, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: the Origin is not loopback' } });
    const sessionId = request.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (known) return known.handleRequest(request, response);
    if (typeof sessionId === 'string') return json(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    if (request.method !== 'POST') return json(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: start a session with initialize' } });
    // A new session: the SDK's transport answers initialize (and refuses anything else without a session).
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await newServer().connect(transport);
    await transport.handleRequest(request, response);
  }

  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      const address = http.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        http,
        url: `http://${host}:${port}/mcp`,
        close: async () => {
          await Promise.all([...transports.values()].map((transport) => transport.close().catch(() => {})));
          await new Promise<void>((done) => http.close(() => done()));
          http.closeAllConnections?.();
        },
      });
    });
  });
}

function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}
