import { randomBytes } from 'node:crypto';
import { bearerHeader, bearerMatches, isLoopbackOrigin, readBoundedBody, sendJson } from '../http/incoming-request.js';
import { listenForMcp } from '../http/listen-mcp.js';
import { SessionTable } from '../http/session-table.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Faults } from './faults.js';
import type { Responder } from './mock-answers.js';
import { createMockSession } from './mock-session.js';

/** A request body larger than this is refused (413): a mock is not a sink for floods. */
const MAX_BODY_BYTES = 4 << 20;

/**
 * The mock over Streamable HTTP (POST /mcp, one JSON answer per request, no SSE stream): a session
 * per `initialize` (Mcp-Session-Id), DELETE to end it. The faults only HTTP has: `401` refuses every
 * request with a Bearer challenge; `session-expired=N` forgets a session after N requests (404, as
 * the spec has a server say the session is gone). As `serve --http`: a bearer token when `token` is
 * set (--token-env), an Origin that is not loopback refused (403: the spec's DNS-rebinding guard), and
 * sessions kept within bounds (SessionTable: a cap with the least recently used idle one making room,
 * handshake and idle expiry), so a mock left listening cannot be filled up by a flood.
 */
export function serveMockOverHttp(
  newResponder: () => Responder,
  faults: Faults,
  random: () => number,
  listen: { host: string; port: number; token?: string; log?: (message: string) => void; maxSessions?: number; handshakeMs?: number; idleMs?: number },
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const sessions = new SessionTable<{ handle: (message: unknown) => Promise<void>; requests: number; pending: Map<string, (message: Record<string, unknown>) => void> }>({
    max: listen.maxSessions,
    handshakeMs: listen.handshakeMs,
    idleMs: listen.idleMs,
    end: () => {},
    say: (message) => listen.log?.(`toolrun mock: ${message}`),
  });
  const expected = listen.token === undefined ? undefined : bearerHeader(listen.token);
  const server = createServer((request, response) => {
    void handleRequest(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'toolrun mock: internal error' } });
    });
  });

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/mcp') return sendJson(response, 404, { error: 'not found: the mock serves /mcp' });
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="toolrun-mock"');
      return sendJson(response, 401, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized: send the bearer token toolrun mock was started with (--token-env)' } });
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin)) return sendJson(response, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Origin is not loopback' } });
    if (faults.unauthorized) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="toolrun-mock", error="invalid_token", error_description="toolrun mock fault: --fault 401"');
      return sendJson(response, 401, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized (toolrun mock fault: --fault 401)' } });
    }
    const sessionId = request.headers['mcp-session-id'];
    if (request.method === 'DELETE') {
      if (typeof sessionId !== 'string' || !sessions.forget(sessionId)) return sendJson(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      return sendJson(response, 200, {});
    }
    if (request.method === 'GET') return sendJson(response, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method Not Allowed: this mock opens no SSE stream' } });
    if (request.method !== 'POST') return sendJson(response, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method Not Allowed' } });
    const body = await readBoundedBody(request, MAX_BODY_BYTES);
    if (body === undefined) return sendJson(response, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request too large (over ${MAX_BODY_BYTES} bytes)` } });
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const isInitialize = typeof message === 'object' && message !== null && message.method === 'initialize';
    let session = typeof sessionId === 'string' && !isInitialize ? sessions.use(sessionId, response) : undefined;
    if (isInitialize) {
      if (!(await sessions.makeRoom()))
        return sendJson(response, 503, { jsonrpc: '2.0', id: null, error: { code: -32000, message: `toolrun mock holds ${sessions.max} sessions, all busy: end one (DELETE) first` } });
      const id = randomBytes(16).toString('hex');
      session = newSession();
      sessions.add(id, session, response);
      sessions.use(id, response);
      response.setHeader('Mcp-Session-Id', id);
    } else if (typeof sessionId !== 'string') {
      return sendJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } });
    } else if (!session) {
      return sendJson(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    }
    session.requests += 1;
    if (!isInitialize && faults.sessionExpiresAfter !== undefined && session.requests > faults.sessionExpiresAfter) {
      sessions.forget(sessionId as string);
      return sendJson(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found (toolrun mock fault: --fault session-expired)' } });
    }
    if (message?.method === 'notifications/initialized' && typeof sessionId === 'string') sessions.handshaken(sessionId);
    const id = message?.id;
    if (typeof id !== 'string' && typeof id !== 'number') {
      await session.handle(message);
      response.writeHead(202).end();
      return;
    }
    const answered = new Promise<Record<string, unknown> | 'cut'>((resolve) => {
      session!.pending.set(String(id), resolve);
      response.on('close', () => session!.pending.delete(String(id)));
      (response as ServerResponse & { cutMidCall?: () => void }).cutMidCall = () => resolve('cut');
    });
    cutting = response;
    void session.handle(message);
    const answer = await answered;
    if (answer === 'cut') response.socket?.destroy();
    else sendJson(response, 200, answer);
  }

  let cutting: ServerResponse | undefined;
  function newSession() {
    const pending = new Map<string, (message: Record<string, unknown>) => void>();
    const session = createMockSession(newResponder(), faults, random, {
      send: (message, id) => {
        if (id === undefined || id === null) return; // a notification: no stream to carry it
        pending.get(String(id))?.(message);
        pending.delete(String(id));
      },
      exitMidCall: () => (cutting as (ServerResponse & { cutMidCall?: () => void }) | undefined)?.cutMidCall?.(),
    });
    return { handle: (message: unknown) => session.handle(message), requests: 0, pending };
  }

  return listenForMcp(server, listen, sessions).then((listening) => ({ server, ...listening }));
}
