import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a loopback server received: its method, path, headers and JSON-RPC message. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rpcMethod?: string;
  rpc?: { id?: string | number; method?: string; params?: Record<string, unknown> };
}

export interface LoopbackServer {
  origin: string;
  received: ReceivedRequest[];
  stop(): Promise<void>;
}

/**
 * A loopback HTTP server (127.0.0.1 only) that records every request and answers with `answer`
 * (status, headers, body); the body of a request is read first, so `rpcMethod` is known.
 */
export async function startLoopbackServer(answer: (request: ReceivedRequest, origin: string) => { status: number; headers?: Record<string, string>; body?: string }): Promise<LoopbackServer> {
  const received: ReceivedRequest[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let rpc: ReceivedRequest['rpc'];
      try {
        rpc = JSON.parse(Buffer.concat(chunks).toString()) as ReceivedRequest['rpc'];
      } catch {
        // not JSON-RPC (a GET, a DELETE)
      }
      const entry = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, rpcMethod: rpc?.method, rpc };
      received.push(entry);
      const { status, headers = {}, body = '' } = answer(entry, origin);
      response.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
