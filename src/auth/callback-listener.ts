import { createServer } from 'node:http';
import { ToolrunError } from '../errors.js';

export interface CallbackListener {
  /** `http://127.0.0.1:PORT/callback`: the loopback redirect (RFC 8252 §7.3), never `localhost` (which may resolve elsewhere). */
  redirectUrl: string;
  port: number;
  /** The first request to /callback that `accept` takes, as a URL (code, state, iss, or error). */
  received: Promise<URL>;
  close(): void;
}

const PAGE = '<!doctype html><meta charset="utf-8"><title>toolrun</title><p>toolrun received the authorization. You can close this tab.</p>';
const NOT_OURS =
  '<!doctype html><meta charset="utf-8"><title>toolrun</title><p>This is not the answer to the login toolrun started (its state does not match): toolrun ignored it and is still waiting for the authorization.</p>';

/**
 * Listens on 127.0.0.1:`port` (0: a free one) for the authorization server's redirect. A request that
 * `accept` refuses (another page, or a local process, hitting the port with a wrong `state`) gets an
 * error page and does not end the login: otherwise anyone who can reach the port could abort it.
 */
export async function listenForCallback(port: number, accept: (url: URL) => boolean = () => true): Promise<CallbackListener> {
  let deliver: (url: URL) => void = () => {};
  const received = new Promise<URL>((resolve) => (deliver = resolve));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    if (!accept(url)) {
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(NOT_OURS);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(PAGE);
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new ToolrunError('usage', `port ${port} on 127.0.0.1 is in use: free it, or give another with --callback-port (the registration is then made again)`) : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    redirectUrl: `http://127.0.0.1:${bound}/callback`,
    port: bound,
    received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
