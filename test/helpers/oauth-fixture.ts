import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import Provider from 'oidc-provider';
import { z } from 'zod';

/**
 * A real OAuth 2.1 authorization server (oidc-provider: maintained, certified, with dynamic
 * registration, PKCE and resource indicators) with automatic login and consent, and an MCP server
 * (the SDK's, over Streamable HTTP) that is a protected resource: RFC 9728 metadata, a 401 with a
 * `WWW-Authenticate: Bearer resource_metadata=…` challenge unless the bearer is a JWT the
 * authorization server signed for it. Both on 127.0.0.1, in the test's process.
 */
export interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  /** Token endpoint grants by type (`refresh_token`, `authorization_code`, `client_credentials`). */
  grants: Record<string, number>;
  /** Requests the authorization server got from clients (its JWKS fetched by the MCP server aside). */
  asRequests: number;
  /** Makes the MCP server refuse every access token seen so far (revoked server-side). */
  rejectSeenTokens(): void;
  close(): Promise<void>;
}

export const CI_CLIENT = { id: 'ci-client', secret: 'ci-secret-4f1d9a' };
const SCOPES = ['mcp:read', 'mcp:write'];

export async function startOAuthFixture(options: { accessTokenTTL?: number } = {}): Promise<OAuthFixture> {
  const asServer = createServer();
  const mcpServer = createServer();
  const [asPort, mcpPort] = await Promise.all([listen(asServer), listen(mcpServer)]);
  const issuer = `http://127.0.0.1:${asPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const ttl = options.accessTokenTTL ?? 300;
  const fixture = { issuer, mcpUrl, grants: {} as Record<string, number>, asRequests: 0 };

  const provider = new Provider(issuer, {
    clients: [{ client_id: CI_CLIENT.id, client_secret: CI_CLIENT.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    scopes: ['openid', 'offline_access', ...SCOPES],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== mcpUrl) throw new Error(`unknown resource ${resource}`);
          return { scope: SCOPES.join(' '), audience: mcpUrl, accessTokenTTL: ttl, accessTokenFormat: 'jwt' };
        },
      },
    },
    pkce: { required: () => true },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['toolrun-test-cookie-key'] },
  });
  provider.on('grant.success', (ctx) => {
    const type = String(ctx.oidc.params?.grant_type ?? 'authorization_code');
    fixture.grants[type] = (fixture.grants[type] ?? 0) + 1;
  });
  const providerCallback = provider.callback();
  asServer.on('request', (req, res) => {
    // The MCP server's own key fetch (jose) is not toolrun's doing.
    if (req.url !== '/jwks') fixture.asRequests++;
    if (req.url?.startsWith('/interaction/')) void consentAutomatically(provider, req, res, mcpUrl);
    else providerCallback(req, res);
  });

  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const seen = new Set<string>();
  const rejected = new Set<string>();
  const metadataUrl = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`;
  mcpServer.on('request', (req, res) => {
    void (async () => {
      if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: SCOPES, bearer_methods_supported: ['header'] }));
        return;
      }
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || rejected.has(token) || !(await verifies(token))) {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${metadataUrl}"`, 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        return;
      }
      seen.add(token);
      await serveMcp(req, res);
    })();
  });
  const verifies = async (token: string) => {
    try {
      await jwtVerify(token, jwks, { issuer, audience: mcpUrl });
      return true;
    } catch {
      return false;
    }
  };

  return Object.assign(fixture, {
    rejectSeenTokens: () => seen.forEach((token) => rejected.add(token)),
    close: async () => {
      for (const server of [asServer, mcpServer]) server.closeAllConnections();
      await Promise.all([asServer, mcpServer].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  });
}

/** Login and consent without a person: the account `user`, every scope asked for, on the MCP resource. */
async function consentAutomatically(provider: Provider, req: IncomingMessage, res: ServerResponse, resource: string): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId: 'user', clientId: String(details.params.client_id) });
    const scope = String(details.params.scope ?? SCOPES.join(' '));
    // Listed in `scopes` too, so oidc-provider counts them as scopes of the grant as well as of the resource.
    grant.addOIDCScope(scope);
    grant.addResourceScope(
      resource,
      scope
        .split(' ')
        .filter((item) => SCOPES.includes(item))
        .join(' ') || SCOPES.join(' '),
    );
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: 'user' }, consent: { grantId } }, { mergeWithLastSubmission: false });
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

/** A stateless MCP server with one tool, `echo`, new for each request (the SDK's stateless pattern). */
async function serveMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the message', inputSchema: { message: z.string() } }, ({ message }) => ({ content: [{ type: 'text', text: message }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}
