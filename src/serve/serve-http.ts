import { randomUUID } from 'node:crypto';
import { bearerHeader, bearerMatches, isLoopbackOrigin, readBoundedBody, sendJson } from '../http/incoming-request.js';
import { listenForMcp } from '../http/listen-mcp.js';
import { SessionTable } from '../http/session-table.js';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MAX_QUEUED_OUTPUT_BYTES, sessionOutputCap } from './queued-output.js';

/** A request body larger than this is refused (413) before anything parses it. */
const MAX_BODY_BYTES = 4 << 20;

/**
 * `toolrun serve --http`: Streamable HTTP on /mcp, one SDK server per session (made by `newServer`
 * at each `initialize`). Before the SDK sees a request: the bearer token when `--token-env` set one
 * (401 with a Bearer challenge otherwise, compared in constant time), and the Origin, which must be
 * loopback (403 otherwise: the DNS-rebinding guard the spec asks servers for).
 */
export function serveOverHttp(
  newServer: () => Server,
  options: { host: string; port: number; token?: string; log?: (message: string) => void; maxSessions?: number; handshakeMs?: number; idleMs?: number; maxQueuedBytes?: number },
): Promise<{ http: HttpServer; url: string; close(): Promise<void> }> {
  const maxQueuedBytes = options.maxQueuedBytes ?? MAX_QUEUED_OUTPUT_BYTES;
  const sessions = new SessionTable<{ transport: StreamableHTTPServerTransport; outputCap: ReturnType<typeof sessionOutputCap> }>({
    max: options.maxSessions,
    handshakeMs: options.handshakeMs,
    idleMs: options.idleMs,
    end: (_id, { transport }) => transport.close(),
    say: (message) => options.log?.(`toolrun serve: ${message}`),
  });
  const expected = options.token === undefined ? undefined : bearerHeader(options.token);

  const http = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: `toolrun serve: ${(error as Error).message}` } });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if ((request.url ?? '/').split('?')[0] !== '/mcp') return sendJson(response, 404, { error: 'not found: toolrun serve answers on /mcp' });
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="toolrun serve"');
      return sendJson(response, 401, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized: send the bearer token toolrun serve was started with (--token-env)' } });
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin)) return sendJson(response, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: the Origin is not loopback' } });
    const sessionId = request.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.use(sessionId, response) : undefined;
    if (known) {
      known.outputCap.watch(response);
      return known.transport.handleRequest(request, response);
    }
    if (typeof sessionId === 'string') return sendJson(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    const startOver = () => sendJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: start a session with initialize' } });
    if (request.method !== 'POST') return startOver();
    // Only an initialize makes a session (and a server for it): anything else is refused before one exists.
    const body = await readBoundedBody(request, MAX_BODY_BYTES);
    if (body === undefined) return sendJson(response, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request too large (over ${MAX_BODY_BYTES} bytes)` } });
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if ((message as { method?: unknown } | null)?.method !== 'initialize') return startOver();
    if (!(await sessions.makeRoom()))
      return sendJson(response, 503, { jsonrpc: '2.0', id: null, error: { code: -32000, message: `toolrun serve holds ${sessions.max} sessions, all busy: end one (DELETE) first` } });
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        // A client that stops reading its event streams: what the session sends waits in memory, up to a cap.
        const outputCap = sessionOutputCap(maxQueuedBytes, () => {
          void sessions.end(id, 'unread', `ended session ${id}: its client has not read ${formatMegabytes(maxQueuedBytes)} of what was sent to it; what was queued is dropped`);
          outputCap.destroyUnread();
        });
        sessions.add(id, { transport, outputCap });
      },
    });
    const previous = server.oninitialized;
    server.oninitialized = () => {
      if (transport.sessionId) sessions.handshaken(transport.sessionId);
      previous?.();
    };
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, message);
    // An initialize the SDK refused made no session: its server goes now, not never.
    if (!transport.sessionId) await transport.close().catch(() => {});
  }

  return listenForMcp(http, options, sessions).then((listening) => ({ http, ...listening }));
}

function formatMegabytes(bytes: number): string {
  return bytes >= 1 << 20 ? `${Math.round(bytes / (1 << 20))} MB` : `${bytes} bytes`;
}
