import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A hand-rolled protected resource and authorization server on one 127.0.0.1 port, each answer
 * chosen by the test (issue #31 item 5): the MCP endpoint always answers 401 with a challenge, the
 * metadata names the authorization URL the test sets (a `file:` URL, a custom scheme), a route can
 * stall (accept the request, never answer) or flood (1 MB of metadata), and every token request is
 * kept, headers and body, to see what was sent.
 */
export interface HostileAuthServer {
  base: string;
  mcpUrl: string;
  issuer: string;
  /** Replaced by the test: the authorization_endpoint of the metadata (default `${issuer}/authorize`). */
  authorizationEndpoint: string;
  /** A route that never answers. */
  stall?: 'metadata' | 'token';
  /** 1 MB of metadata. */
  flood?: boolean;
  tokenRequests: Array<{ authorization?: string; body: string }>;
  close(): Promise<void>;
}

export async function startHostileAuthServer(): Promise<HostileAuthServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: HostileAuthServer = {
    base,
    mcpUrl: `${base}/mcp`,
    issuer: `${base}/as`,
    authorizationEndpoint: `${base}/as/authorize`,
    tokenRequests: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    if (path === '/mcp') {
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
    } else if (path === '/.well-known/oauth-protected-resource/mcp') {
      json(res, 200, { resource: fake.mcpUrl, authorization_servers: [fake.issuer] });
    } else if (path === '/.well-known/oauth-authorization-server/as') {
      if (fake.stall === 'metadata') return;
      json(res, 200, {
        issuer: fake.issuer,
        authorization_endpoint: fake.authorizationEndpoint,
        token_endpoint: `${fake.issuer}/token`,
        registration_endpoint: `${fake.issuer}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        ...(fake.flood && { padding: 'x'.repeat(1024 * 1024) }),
      });
    } else if (path === '/as/register') {
      json(res, 201, { ...JSON.parse(body || '{}'), client_id: 'hostile-client' });
    } else if (path === '/as/token') {
      fake.tokenRequests.push({ authorization: req.headers.authorization, body });
      if (fake.stall === 'token') return;
      json(res, 200, { access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 3600, scope: 'mcp' });
    } else res.writeHead(404).end();
  });
  return fake;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
