import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Faults } from './faults.js';
import type { Responder } from './mock-answers.js';
import { createMockSession } from './mock-session.js';

/** A request body larger than this is refused (413): a mock is not a sink for floods. */
const MAX_BODY_BYTES = 4 << 20;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The mock over Streamable HTTP (POST /mcp, one JSON answer per request, no SSE stream): a session
 * per `initialize` (Mcp-Session-Id), DELETE to end it. The faults only HTTP has: `401` refuses every
 * request with a Bearer challenge; `session-expired=N` forgets a session after N requests (404, as
 * the spec has a server say the session is gone). An Origin that is not loopback is refused (403:
 * the spec's DNS-rebinding guard).
 */
export function serveMockOverHttp(newResponder: () => Responder, faults: Faults, random: () => number, listen: { host: string; port: number }): Promise<{ server: Server; url: string }> {
  const sessions = new Map<string, { handle: (message: unknown) => Promise<void>; requests: number; pending: Map<string, (message: Record<string, unknown>) => void> }>();
  const server = createServer((request, response) => {
    void handleRequest(request, response).catch(() => {
      if (!response.headersSent) respond(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'toolrun mock: internal error' } });
    });
  });

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/mcp') return respond(response, 404, { error: 'not found: the mock serves /mcp' });
    const origin = request.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin)) return respond(response, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Origin is not loopback' } });
    if (faults.unauthorized) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="toolrun-mock", error="invalid_token", error_description="toolrun mock fault: --fault 401"');
      return respond(response, 401, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized (toolrun mock fault: --fault 401)' } });
    }
    const sessionId = request.headers['mcp-session-id'];
    if (request.method === 'DELETE') {
      if (typeof sessionId !== 'string' || !sessions.delete(sessionId)) return respond(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      return respond(response, 200, {});
    }
    if (request.method === 'GET') return respond(response, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method Not Allowed: this mock opens no SSE stream' } });
    if (request.method !== 'POST') return respond(response, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method Not Allowed' } });
    const body = await readBody(request);
    if (body === undefined) return respond(response, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request too large (over ${MAX_BODY_BYTES} bytes)` } });
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return respond(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const isInitialize = typeof message === 'object' && message !== null && message.method === 'initialize';
    let session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (isInitialize) {
      const id = randomBytes(16).toString('hex');
      session = newSession();
      sessions.set(id, session);
      response.setHeader('Mcp-Session-Id', id);
    } else if (typeof sessionId !== 'string') {
      return respond(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } });
    } else if (!session) {
      return respond(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    }
    session.requests += 1;
    if (!isInitialize && faults.sessionExpiresAfter !== undefined && session.requests > faults.sessionExpiresAfter) {
      sessions.delete(sessionId as string);
      return respond(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found (toolrun mock fault: --fault session-expired)' } });
    }
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
    else respond(response, 200, answer);
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

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : listen.port;
      const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
      resolve({ server, url: `http://${host}:${port}/mcp` });
    });
  });
}

function respond(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}
