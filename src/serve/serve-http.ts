import { randomUUID, timingSafeEqual } from 'node:crypto';
import { isLoopbackOrigin, readBoundedBody, sendJson } from '../http/incoming-request.js';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MAX_QUEUED_OUTPUT_BYTES, sessionOutputCap } from './queued-output.js';

/** A request body larger than this is refused (413) before anything parses it. */
const MAX_BODY_BYTES = 4 << 20;
/** Sessions at once: each holds a server instance; more is a leak or a flood. */
const MAX_SESSIONS = 1000;
/** A session without a request for this long is ended. */
const IDLE_MS = 30 * 60_000;
/** A session whose client never finished the handshake (no notifications/initialized) is ended after this. */
const HANDSHAKE_MS = 5_000;

/**
 * `toolrun serve --http`: Streamable HTTP on /mcp, one SDK server per session (made by `newServer`
 * at each `initialize`). Before the SDK sees a request: the bearer token when `--token-env` set one
 * (401 with a Bearer challenge otherwise, compared in constant time), and the Origin, which must be
 * loopback (403 otherwise: the DNS-rebinding guard the spec asks servers for).
 */
export function serveOverHttp(
  newServer: () => Server,
  options: { host: string; port: number; token?: string; log?: (message: string) => void; maxSessions?: number; handshakeMs?: number; maxQueuedBytes?: number },
): Promise<{ http: HttpServer; url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const handshakeMs = options.handshakeMs ?? HANDSHAKE_MS;
  const maxQueuedBytes = options.maxQueuedBytes ?? MAX_QUEUED_OUTPUT_BYTES;
  const outputCaps = new Map<string, ReturnType<typeof sessionOutputCap>>();
  // What serve says of the sessions it ends: the first few of each reason, so a flood cannot flood stderr too.
  const ended = new Map<string, number>();
  const sayEnded = (reason: 'handshake' | 'evicted' | 'unread', message: string) => {
    const count = (ended.get(reason) ?? 0) + 1;
    ended.set(reason, count);
    if (count <= 3) options.log?.(`toolrun serve: ${message}${count === 3 ? ' (further sessions ended this way are not said)' : ''}`);
  };
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);

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
    const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (known) {
      lastSeen.set(sessionId as string, Date.now());
      // In flight until the response ends (a GET's event stream stays open: that session is not idle).
      inFlight.set(sessionId as string, (inFlight.get(sessionId as string) ?? 0) + 1);
      response.once('close', () => inFlight.set(sessionId as string, Math.max(0, (inFlight.get(sessionId as string) ?? 1) - 1)));
      outputCaps.get(sessionId as string)?.watch(response);
      return known.handleRequest(request, response);
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
    // Full: the least recently used session with nothing in flight makes room (a flood of idle sessions
    // must not lock every new client out until they expire); only when every session is busy is a client refused.
    if (transports.size >= maxSessions && !(await evictLeastRecentlyUsedIdle()))
      return sendJson(response, 503, { jsonrpc: '2.0', id: null, error: { code: -32000, message: `toolrun serve holds ${maxSessions} sessions, all busy: end one (DELETE) first` } });
    const server = newServer();
    let initialized = false;
    const previous = server.oninitialized;
    server.oninitialized = () => {
      initialized = true;
      previous?.();
    };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        lastSeen.set(id, Date.now());
        // A client that stops reading its event streams: what the session sends waits in memory, up to a cap.
        const cap = sessionOutputCap(maxQueuedBytes, () => {
          sayEnded('unread', `ended session ${id}: its client has not read ${formatMegabytes(maxQueuedBytes)} of what was sent to it; what was queued is dropped`);
          cap.destroyUnread();
          void transport.close().catch(() => {});
        });
        outputCaps.set(id, cap);
        // A client that sent initialize and never notifications/initialized holds a server for nothing.
        setTimeout(() => {
          if (!initialized && transports.get(id) === transport) {
            sayEnded('handshake', `ended session ${id}: its client did not finish the handshake within ${handshakeMs / 1000} s`);
            void transport.close().catch(() => {});
          }
        }, handshakeMs).unref();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        transports.delete(transport.sessionId);
        lastSeen.delete(transport.sessionId);
        inFlight.delete(transport.sessionId);
        outputCaps.delete(transport.sessionId);
      }
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, message);
    // An initialize the SDK refused made no session: its server goes now, not never.
    if (!transport.sessionId || !transports.has(transport.sessionId)) await transport.close().catch(() => {});
  }

  // A client that leaves without DELETE: its session ends after IDLE_MS without a request.
  const lastSeen = new Map<string, number>();
  const inFlight = new Map<string, number>();
  async function evictLeastRecentlyUsedIdle(): Promise<boolean> {
    let oldest: string | undefined;
    for (const [id, seen] of lastSeen) if ((inFlight.get(id) ?? 0) === 0 && (oldest === undefined || seen < lastSeen.get(oldest)!)) oldest = id;
    const transport = oldest === undefined ? undefined : transports.get(oldest);
    if (!transport) return false;
    sayEnded('evicted', `ended session ${oldest}, idle the longest, to make room for a new client (${maxSessions} at most)`);
    await transport.close().catch(() => {});
    transports.delete(oldest!);
    lastSeen.delete(oldest!);
    return true;
  }
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, seen] of lastSeen)
      if (now - seen > IDLE_MS)
        void transports
          .get(id)
          ?.close()
          .catch(() => {});
  }, 60_000).unref();

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
          clearInterval(sweeper);
          await Promise.all([...transports.values()].map((transport) => transport.close().catch(() => {})));
          // Connections first: close() waits for every open one, and a client that sent half a request would hold it for minutes.
          const closed = new Promise<void>((done) => http.close(() => done()));
          http.closeAllConnections();
          await closed;
        },
      });
    });
  });
}

function formatMegabytes(bytes: number): string {
  return bytes >= 1 << 20 ? `${Math.round(bytes / (1 << 20))} MB` : `${bytes} bytes`;
}

function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
