import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import Provider from 'oidc-provider';
import { z } from 'zod';
import { checkDpopPresentation, machineClients, registerJwtBearerGrant, serveIdentityProvider } from './oauth-machine-grants.js';

/**
 * A real OAuth 2.1 authorization server (oidc-provider: maintained, certified, with dynamic
 * registration, PKCE and resource indicators) with automatic login and consent, and an MCP server
 * (the SDK's, over Streamable HTTP) that is a protected resource: RFC 9728 metadata, a 401 with a
 * `WWW-Authenticate: Bearer resource_metadata=…` challenge unless the bearer is a JWT the
 * authorization server signed for it. Both on 127.0.0.1, in the test's process.
 *
 * Options: `era: 'modern'` serves the MCP side with the v2 server package, 2026-07-28 only;
 * `discovery` drops RFC 9728 for the 2025-03-26 fallbacks (the authorization server at the MCP
 * server's origin, its metadata at the root, or no metadata at all: /authorize, /token, /register).
 * The tool `admin_echo` needs the scope `mcp:admin` (a 403 `insufficient_scope` otherwise), which
 * the protected resource metadata does not list: only that challenge asks for it.
 */
export interface OAuthFixtureOptions {
  accessTokenTTL?: number;
  era?: 'legacy' | 'modern';
  discovery?: 'protected-resource' | 'origin-metadata' | 'default-endpoints';
  /** RFC 7009 token revocation (`revocation_endpoint` in the metadata). */
  revocation?: boolean;
  /**
   * The MCP server takes DPoP-bound tokens (RFC 9449): its challenge offers `DPoP`, its metadata lists
   * ES256. `nonce` adds nonces at both servers (§8, §9); `nonce-loop` makes the MCP server ask for a
   * new nonce at every request; `required` makes the authorization server refuse tokens without a proof.
   */
  dpop?: 'on' | 'nonce' | 'nonce-loop' | 'required';
  /**
   * The MCP server lets `initialize` through without a token and challenges what follows (with the
   * scope `mcp:write`). In the modern era the v2 server then refuses `initialize` (HTTP 400), as a
   * 2026-07-28-only server does, and the first request it challenges is `server/discover`.
   */
  openInitialize?: boolean;
  /** With `openInitialize` in the modern era: `server/discover` needs no token either (`tools/list` is challenged). */
  openDiscover?: boolean;
}

export interface OAuthFixture {
  issuer: string;
  /** The identity provider of enterprise-managed authorization (on the authorization server's origin). */
  idpIssuer: string;
  mcpUrl: string;
  /** Token endpoint grants by type (`refresh_token`, `authorization_code`, `client_credentials`). */
  grants: Record<string, number>;
  /** Every request the token endpoint answered, by grant type: refused ones too (`grants` counts those that got a token). */
  tokenRequests: Record<string, number>;
  /** The `assertion` of each JWT-bearer request the token endpoint got, refused ones too. */
  assertionsReceived: string[];
  /** Requests the authorization server got from clients (its JWKS fetched by the MCP server aside). */
  asRequests: number;
  /** The JSON-RPC method of each POST the MCP server got, in order. */
  mcpMethods: string[];
  /** Makes the MCP server refuse every access token seen so far (revoked server-side). */
  rejectSeenTokens(): void;
  /** Makes `admin_echo` answer 403 insufficient_scope whatever the token's scopes (a re-authorization that cannot help). */
  refuseAdminAlways(refuse: boolean): void;
  /** Resolves once `count` more `server/discover` requests without a usable token have been answered 401 (counted from this call). */
  discoverChallenged(count: number): Promise<void>;
  /** Holds every consent until `gate` settles: no login can finish, so no token exists meanwhile. */
  holdConsent(gate: Promise<unknown> | undefined): void;
  /** 403 insufficient_scope answers given. */
  refusedForScope: number;
  /** The DPoP schemes and proofs the MCP server saw: `DPoP`/`Bearer` per authorized request, nonce challenges given. */
  dpopSeen: { schemes: string[]; nonceChallenges: number };
  close(): Promise<void>;
}

export const CI_CLIENT = { id: 'ci-client', secret: 'ci-secret-4f1d9a' };
const SCOPES = ['mcp:read', 'mcp:write'];
const ADMIN_SCOPE = 'mcp:admin';
const RESOURCE_SCOPES = [...SCOPES, ADMIN_SCOPE];

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const discovery = options.discovery ?? 'protected-resource';
  // The 2025-03-26 fallbacks: one origin for the MCP server and its authorization server.
  const sameOrigin = discovery !== 'protected-resource';
  const asServer = createServer();
  const mcpServer = sameOrigin ? asServer : createServer();
  const [asPort, mcpPort] = sameOrigin ? await listen(asServer).then((port) => [port, port]) : await Promise.all([listen(asServer), listen(mcpServer)]);
  const issuer = `http://127.0.0.1:${asPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const ttl = options.accessTokenTTL ?? 300;
  const idpIssuer = `${issuer}/idp`;
  const dpop = options.dpop;
  const fixture = {
    issuer,
    idpIssuer,
    mcpUrl,
    grants: {} as Record<string, number>,
    tokenRequests: {} as Record<string, number>,
    assertionsReceived: [] as string[],
    asRequests: 0,
    mcpMethods: [] as string[],
    refusedForScope: 0,
    dpopSeen: { schemes: [] as string[], nonceChallenges: 0 },
  };
  const resourceNonce = { current: dpop === 'nonce' || dpop === 'nonce-loop' ? 'rs-nonce-1' : undefined, seenJtis: new Set<string>() };
  let refuseAdmin = false;
  let consentGate: Promise<unknown> | undefined;
  let discoverChallenges = 0;
  const challengeWaiters: { count: number; resolve: () => void }[] = [];

  const provider = new Provider(issuer, {
    clients: [
      { client_id: CI_CLIENT.id, client_secret: CI_CLIENT.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      ...machineClients().map((client) => ({ ...client, ...(dpop === 'required' && { dpop_bound_access_tokens: true }) })),
    ],
    scopes: ['openid', 'offline_access', ...RESOURCE_SCOPES],
    // The 2025-03-26 default endpoints, which a client without metadata assumes.
    ...(discovery === 'default-endpoints' && { routes: { authorization: '/authorize', token: '/token', registration: '/register' } }),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: options.revocation === true },
      clientCredentials: { enabled: true },
      // oidc-provider's DPoP (on by default): nonces when asked for (RFC 9449 §8).
      dPoP: { enabled: true, ...(dpop === 'nonce' && { nonceSecret: randomBytes(32), requireNonce: () => true }) },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== mcpUrl) throw new Error(`unknown resource ${resource}`);
          return { scope: RESOURCE_SCOPES.join(' '), audience: mcpUrl, accessTokenTTL: ttl, accessTokenFormat: 'jwt' };
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
  await registerJwtBearerGrant(provider, issuer, mcpUrl, idpIssuer);
  provider.on('grant.success', (ctx) => {
    const type = String(ctx.oidc.params?.grant_type ?? 'authorization_code');
    fixture.grants[type] = (fixture.grants[type] ?? 0) + 1;
  });
  // A request refused (invalid_client, invalid_grant…) is a request made all the same: a retry, or a
  // credential sent where it should not have been, shows here and not in `grants`.
  const received = (ctx: { oidc?: { params?: Record<string, unknown> } }) => {
    const type = String(ctx.oidc?.params?.grant_type ?? 'unknown');
    fixture.tokenRequests[type] = (fixture.tokenRequests[type] ?? 0) + 1;
    if (typeof ctx.oidc?.params?.assertion === 'string') fixture.assertionsReceived.push(ctx.oidc.params.assertion);
  };
  provider.on('grant.success', received);
  provider.on('grant.error', received);
  const providerCallback = provider.callback();
  const serveAs = (req: IncomingMessage, res: ServerResponse) => {
    // The MCP server's own key fetch (jose) is not toolrun's doing.
    if (req.url !== '/jwks') fixture.asRequests++;
    if (req.url?.startsWith('/idp/')) void serveIdentityProvider(req, res, idpIssuer, fixture.grants);
    else if (discovery === 'default-endpoints' && req.url?.startsWith('/.well-known/')) res.writeHead(404).end();
    else if (req.url?.startsWith('/interaction/'))
      void Promise.resolve(consentGate)
        .catch(() => {})
        .then(() => consentAutomatically(provider, req, res, mcpUrl));
    else providerCallback(req, res);
  };

  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const seen = new Set<string>();
  const rejected = new Set<string>();
  const metadataUrl = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`;
  const serveResource = async (req: IncomingMessage, res: ServerResponse) => {
    // A trailing slash moved: a same-origin redirect a client follows (with a new DPoP proof for the new URL).
    if (req.url === '/mcp/') return void res.writeHead(308, { location: '/mcp' }).end();
    if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
      if (sameOrigin) res.writeHead(404).end();
      else
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            resource: mcpUrl,
            authorization_servers: [issuer],
            scopes_supported: SCOPES,
            bearer_methods_supported: ['header'],
            ...(dpop && { dpop_signing_alg_values_supported: ['ES256'] }),
          }),
        );
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const message = body ? (JSON.parse(body.toString()) as { method?: string; params?: { name?: string } }) : undefined;
    if (message?.method) fixture.mcpMethods.push(message.method);
    const [, scheme = '', token] = /^(Bearer|DPoP) (\S+)$/i.exec(req.headers.authorization ?? '') ?? [];
    const verified = token && !rejected.has(token) ? await verify(token) : undefined;
    const scheme401 = dpop ? 'DPoP algs="ES256",' : 'Bearer';
    // openInitialize: the handshake needs no token; what follows does, with the scope the tools need.
    const open = message?.method === 'initialize' || message?.method?.startsWith('notifications/') || (options.openDiscover && message?.method === 'server/discover');
    if (options.openInitialize && !verified && open) return options.era === 'modern' ? serveModernMcp(req, res, body) : serveMcp(req, res, message);
    if (!verified) {
      // 2025-03-26 had no resource_metadata: the challenge names the scopes only.
      const challenge = sameOrigin ? `Bearer scope="${SCOPES.join(' ')}"` : `${scheme401} resource_metadata="${metadataUrl}"${options.openInitialize ? ', scope="mcp:write"' : ''}`;
      res.writeHead(401, { 'www-authenticate': challenge, 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
      // A toolrun's first request: its probe of the 2026-07-28 protocol.
      if (message?.method === 'server/discover') {
        discoverChallenges++;
        for (const waiter of challengeWaiters.filter((waiter) => discoverChallenges >= waiter.count)) waiter.resolve();
      }
      return;
    }
    const refusal = await checkDpopPresentation(req, mcpUrl, token!, scheme, verified.jkt, resourceNonce);
    fixture.dpopSeen.schemes.push(scheme);
    if (refusal) {
      if (refusal.error === 'use_dpop_nonce') fixture.dpopSeen.nonceChallenges++;
      // nonce-loop: a new nonce at every request, whatever the client sends.
      if (dpop === 'nonce-loop') resourceNonce.current = `rs-nonce-${fixture.dpopSeen.nonceChallenges + 1}`;
      const headers = {
        'www-authenticate': `DPoP error="${refusal.error}", error_description="${refusal.description}"`,
        'content-type': 'application/json',
        ...(refusal.nonce && { 'dpop-nonce': refusal.nonce }),
      };
      res.writeHead(401, headers).end(JSON.stringify({ error: refusal.error }));
      return;
    }
    const scopes = verified.scopes;
    seen.add(token!);
    if (message?.method === 'tools/call' && message.params?.name === 'admin_echo' && (refuseAdmin || !scopes.includes(ADMIN_SCOPE))) {
      fixture.refusedForScope++;
      const challenge = `Bearer error="insufficient_scope", scope="${ADMIN_SCOPE}"${sameOrigin ? '' : `, resource_metadata="${metadataUrl}"`}`;
      res.writeHead(403, { 'www-authenticate': challenge, 'content-type': 'application/json' }).end('{"error":"insufficient_scope"}');
      return;
    }
    if (options.era === 'modern') await serveModernMcp(req, res, body);
    else await serveMcp(req, res, message);
  };
  if (sameOrigin)
    asServer.on('request', (req, res) => void (req.url?.startsWith('/mcp') || req.url?.startsWith('/.well-known/oauth-protected-resource') ? serveResource(req, res) : serveAs(req, res)));
  else {
    asServer.on('request', serveAs);
    mcpServer.on('request', (req, res) => void serveResource(req, res));
  }
  /** The token's scopes (and the key it is bound to) when the authorization server signed it for this resource, else undefined. */
  const verify = async (token: string) => {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: mcpUrl });
      return { scopes: String(payload.scope ?? '').split(' '), jkt: (payload.cnf as { jkt?: string } | undefined)?.jkt };
    } catch {
      return undefined;
    }
  };

  return Object.assign(fixture, {
    rejectSeenTokens: () => seen.forEach((token) => rejected.add(token)),
    refuseAdminAlways: (value: boolean) => void (refuseAdmin = value),
    discoverChallenged: (count: number) => new Promise<void>((resolve) => challengeWaiters.push({ count: discoverChallenges + count, resolve })),
    holdConsent: (gate: Promise<unknown> | undefined) => void (consentGate = gate),
    close: async () => {
      const servers = sameOrigin ? [asServer] : [asServer, mcpServer];
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
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
        .filter((item) => RESOURCE_SCOPES.includes(item))
        .join(' ') || SCOPES.join(' '),
    );
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: 'user' }, consent: { grantId } }, { mergeWithLastSubmission: false });
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

/** A stateless MCP server with two tools, `echo` and `admin_echo`, new for each request (the SDK's stateless pattern). */
async function serveMcp(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
  const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the message', inputSchema: { message: z.string() } }, ({ message }) => ({ content: [{ type: 'text', text: message }] }));
  server.registerTool('admin_echo', { description: 'Echoes the message (scope mcp:admin)', inputSchema: { message: z.string() } }, ({ message }) => ({
    content: [{ type: 'text', text: `admin: ${message}` }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, parsedBody);
}

/** The same tools in the 2026-07-28 era only (the v2 server package's fetch handler, 2025 handshakes refused). */
async function serveModernMcp(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): Promise<void> {
  const { createMcpHandler, McpServer: ModernServer } = await import('@modelcontextprotocol/server');
  const handler = createMcpHandler(
    () => {
      const server = new ModernServer({ name: 'oauth-fixture-v2', version: '2.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('echo', { description: 'Echoes the message', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({ content: [{ type: 'text', text: message }] }));
      server.registerTool('admin_echo', { description: 'Echoes the message (scope mcp:admin)', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
        content: [{ type: 'text', text: `admin: ${message}` }],
      }));
      return server;
    },
    { legacy: 'reject' },
  );
  const headers = Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]]));
  const response = await handler.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
  else res.end();
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}
