import type { Server } from 'node:http';

/**
 * Listens on HOST:PORT (0: a free port) and resolves with the `/mcp` URL clients use, and `close`,
 * which ends `sessions` first, then every connection: http.close() alone waits for each open one, and a
 * client that sent half a request would hold it for minutes. Rejects when listening fails (EADDRINUSE…).
 */
export function listenForMcp(http: Server, listen: { host: string; port: number }, sessions: { closeAll(): Promise<void> }): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(listen.port, listen.host, () => {
      const address = http.address();
      const port = typeof address === 'object' && address ? address.port : listen.port;
      const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
      resolve({
        url: `http://${host}:${port}/mcp`,
        close: async () => {
          await sessions.closeAll();
          const closed = new Promise<void>((done) => http.close(() => done()));
          http.closeAllConnections();
          await closed;
        },
      });
    });
  });
}
