import { maskSecrets } from '../secrets/mask-secrets.js';
import { brokenRule, type AuthRule, type BrokenRule } from './auth-rules.js';
import { oneLine, parseUrl, Tracer, type AuthStage } from './auth-tracer.js';
import { isFailure, type BoundedAnswer, type RequestLimits } from './bounded-request.js';
import { authorizationServerMetadataUrls, resourceMatches, resourceMetadataUrls } from './discovery-urls.js';
import { checkRegistration } from './check-registration.js';
import { parseTokenChallenge } from './www-authenticate.js';
import { machineGrantProblem } from './trace-machine-grant.js';
import type { OAuthGrant } from '../config/config-types.js';

export interface AuthTrace {
  /** none: the server answered without asking for authorization; required: the chain is sound; broken: a rule is broken; unreachable: no HTTP answer. */
  outcome: 'none' | 'required' | 'broken' | 'unreachable';
  stages: AuthStage[];
  /** The authorization server's issuer, once its metadata was found and checked. */
  issuer?: string;
  /** The scopes a login would ask for: the challenge's, else the metadata's scopes_supported. */
  scopes?: string[];
  /** How a client would get its client ID. */
  registration?: 'pre-registered' | 'client-id-metadata-document' | 'dynamic-registration';
  /** Sound but worth saying: the 2025-03-26 fallback was needed, a parent-path resource, a trailing-slash issuer. */
  notes: string[];
  /** What the 401 challenge named: where the protected resource metadata is, and whether it offered DPoP. */
  challenge?: { resourceMetadataUrl?: string; offersDpop: boolean };
  /** The broken rule (outcome broken) and its fix. */
  rule?: AuthRule;
  fix?: string;
  ms: number;
}

export interface TraceAuthOptions extends RequestLimits {
  /** The entry's pre-registered client (`oauth.clientId`), when it has one. */
  clientId?: string;
  /** The entry's grant: one with no person (SPEC §21) needs a token endpoint and its grant listed, not PKCE nor a registration. */
  grant?: OAuthGrant;
  /**
   * Also register a throwaway client and send the authorization and token endpoints a request that
   * must be refused. Off by default: it creates a client at the authorization server.
   */
  probe?: boolean;
}

/** A JSON-RPC ping: answered or refused without a session, it creates none on a server that needs no auth. */
const PING = JSON.stringify({ jsonrpc: '2.0', id: 'toolrun-auth-trace', method: 'ping' });

/**
 * Follows the MCP authorization flow from the server's first 401 as far as a client can without a
 * user (SPEC §14), recording every request, and stops at the first rule broken. Sends no credentials.
 */
export async function traceAuth(serverUrl: string, options: TraceAuthOptions): Promise<AuthTrace> {
  const startedAt = performance.now();
  const tracer = new Tracer(options);
  // Set once the challenge is read; every outcome after it carries it.
  const challenged: { value?: AuthTrace['challenge'] } = {};
  const finish = (outcome: AuthTrace['outcome'], facts: Partial<AuthTrace> = {}): AuthTrace => ({
    outcome,
    stages: tracer.stages,
    notes: tracer.notes,
    ...(challenged.value && { challenge: challenged.value }),
    ...facts,
    ms: Math.round(performance.now() - startedAt),
  });
  // The rule goes on the stage that broke it: the last of that name (the last request, unless said).
  const broken = (found: BrokenRule, stage?: AuthStage['stage']) => {
    const last = stage ? tracer.stages.findLast((candidate) => candidate.stage === stage) : tracer.stages.at(-1);
    if (last) Object.assign(last, { rule: found.rule, fix: found.fix });
    return finish('broken', { rule: found.rule, fix: found.fix });
  };

  const resource = new URL(serverUrl);
  resource.username = '';
  resource.password = '';
  resource.hash = '';
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const challenge = await tracer.request('challenge', resource, { method: 'POST', headers, body: PING, readBody: false }, (answer) => {
    if (answer.status !== 401) return `answered ${answer.status}: no authorization asked for`;
    const header = answer.headers.get('www-authenticate');
    return header ? `401 · WWW-Authenticate: ${header}` : '401 without WWW-Authenticate';
  });
  if (isFailure(challenge)) return finish('unreachable');
  if (challenge.status !== 401) return finish('none');
  const bearer = parseTokenChallenge(challenge.headers.get('www-authenticate'));
  const challengeScopes = bearer?.params.scope?.split(/\s+/).filter(Boolean);
  challenged.value = { resourceMetadataUrl: bearer?.params.resource_metadata, offersDpop: bearer?.offersDpop === true };

  // Protected resource metadata: the URL the challenge names, else the well-known URLs in order.
  let metadata: Record<string, unknown> | undefined;
  const named = bearer?.params.resource_metadata;
  if (named) {
    const url = parseUrl(named, resource);
    if (!url) return broken(brokenRule('prm-missing', `resource_metadata in WWW-Authenticate is not a URL: ${oneLine(named)}`, 'name the metadata URL in full: Bearer resource_metadata="https://…"'));
    const answer = await tracer.getJson('resource-metadata', url, describeResourceMetadata);
    if (isFailure(answer.raw) || !answer.ok)
      return broken(
        brokenRule(
          'prm-missing',
          `the resource_metadata URL ${maskSecrets(url.href)} ${answered(answer.raw)}`,
          'serve the protected resource metadata at that URL, or name the right URL in WWW-Authenticate',
        ),
      );
    if (!answer.json) return broken(notJson('prm-not-json', 'the protected resource metadata', answer.raw));
    metadata = answer.json;
  } else {
    const tried: string[] = [];
    for (const url of resourceMetadataUrls(resource)) {
      const answer = await tracer.getJson('resource-metadata', url, describeResourceMetadata);
      tried.push(`${maskSecrets(url.href)} (${isFailure(answer.raw) ? answer.raw.error : answer.raw.status})`);
      if (answer.ok && !answer.json) return broken(notJson('prm-not-json', 'the protected resource metadata', answer.raw as BoundedAnswer));
      if (answer.json) {
        metadata = answer.json;
        break;
      }
    }
    if (!metadata) {
      // The 2025-03-26 revision had no resource metadata: the server's origin was the authorization server.
      const legacy = await traceLegacy(tracer, resource);
      const fallback = tracer.stages.at(-1)!;
      if (legacy) {
        tracer.notes.push('no protected resource metadata: the 2025-03-26 fallback found authorization server metadata at the server’s origin');
        return traceAuthorizationServer(tracer, legacy, { resource: resource.href, scopes: challengeScopes }, options, finish, broken);
      }
      return broken(
        brokenRule(
          'no-resource-metadata',
          `the 401 names no resource_metadata in WWW-Authenticate, and none of ${tried.join(', ')} serves protected resource metadata (nor is there authorization server metadata at ${fallback.url} for the 2025-03-26 fallback: ${fallback.status ?? 'no answer'})`,
          `serve it at ${resourceMetadataUrls(resource)[0]!.href} and name it in the 401: WWW-Authenticate: Bearer resource_metadata="…"`,
        ),
        'resource-metadata',
      );
    }
  }

  const advertised = typeof metadata.resource === 'string' ? parseUrl(metadata.resource) : undefined;
  const match = advertised ? resourceMatches(resource, advertised) : 'different';
  if (match === 'different')
    return broken(
      brokenRule(
        'prm-resource-mismatch',
        typeof metadata.resource === 'string'
          ? `the metadata's resource ${oneLine(metadata.resource)} is not the server's URL ${maskSecrets(resource.href)}`
          : `the metadata has no resource (the server's URL is ${maskSecrets(resource.href)})`,
        `set "resource" in the protected resource metadata to ${maskSecrets(resource.href)}`,
      ),
    );
  if (match === 'parent') tracer.notes.push(`the metadata's resource ${advertised!.href} is a parent of the server's URL: accepted, as the MCP SDK does`);
  const servers = Array.isArray(metadata.authorization_servers) ? metadata.authorization_servers.filter((server): server is string => typeof server === 'string') : [];
  const issuerUrl = servers[0] ? parseUrl(servers[0]) : undefined;
  if (!issuerUrl)
    return broken(
      brokenRule(
        'no-authorization-servers',
        'the protected resource metadata lists no authorization server (authorization_servers)',
        'list the authorization server: "authorization_servers": ["https://auth.example.com"]',
      ),
    );
  const scopesSupported = Array.isArray(metadata.scopes_supported) ? metadata.scopes_supported.filter((scope): scope is string => typeof scope === 'string') : undefined;
  const discovered = await discoverAuthorizationServer(tracer, servers[0]!, issuerUrl);
  if ('rule' in discovered) return broken(discovered);
  // The SDK's login sends the metadata's resource verbatim: so does the probe.
  return traceAuthorizationServer(tracer, discovered, { resource: String(metadata.resource), scopes: challengeScopes ?? scopesSupported }, options, finish, broken);
}

interface DiscoveredServer {
  /** The identifier the metadata's issuer must equal. */
  identifier: string;
  metadata: Record<string, unknown>;
}

/** RFC 8414 / OIDC discovery at the URLs in the spec's order; the first document found is the one. */
async function discoverAuthorizationServer(tracer: Tracer, identifier: string, issuerUrl: URL): Promise<DiscoveredServer | BrokenRule> {
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const answer = await tracer.getJson('authorization-server-metadata', url, describeServerMetadata);
    tried.push(`${url.href} (${isFailure(answer.raw) ? answer.raw.error : answer.raw.status})`);
    if (answer.ok && !answer.json) return notJson('as-metadata-not-json', 'the authorization server metadata', answer.raw as BoundedAnswer);
    if (answer.json) return { identifier, metadata: answer.json };
  }
  return brokenRule('as-metadata-missing', `no authorization server metadata for ${oneLine(identifier)} at ${tried.join(', ')}`, `serve RFC 8414 metadata at ${tried[0]!.split(' ')[0]}`);
}

/** The 2025-03-26 fallback: authorization server metadata at the MCP server's origin. */
async function traceLegacy(tracer: Tracer, resource: URL): Promise<DiscoveredServer | undefined> {
  const url = new URL('/.well-known/oauth-authorization-server', resource.origin);
  const answer = await tracer.getJson('authorization-server-metadata', url, describeServerMetadata);
  return answer.json ? { identifier: resource.origin, metadata: answer.json } : undefined;
}

/** Checks the metadata found (issuer, S256, endpoints), then how a client would register. */
async function traceAuthorizationServer(
  tracer: Tracer,
  { identifier, metadata }: DiscoveredServer,
  { resource, scopes }: { resource: string; scopes: string[] | undefined },
  options: TraceAuthOptions,
  finish: (outcome: AuthTrace['outcome'], facts?: Partial<AuthTrace>) => AuthTrace,
  broken: (found: BrokenRule) => AuthTrace,
): Promise<AuthTrace> {
  const issuer = typeof metadata.issuer === 'string' ? metadata.issuer : undefined;
  if (issuer !== identifier) {
    if (issuer !== undefined && issuer.replace(/\/$/, '') === identifier.replace(/\/$/, ''))
      tracer.notes.push(`the issuer ${issuer} and the identifier ${identifier} differ only by a trailing /: accepted, as the MCP SDK does`);
    else
      return broken(
        brokenRule(
          'issuer-mismatch',
          `the metadata's issuer ${issuer === undefined ? '(none)' : oneLine(issuer)} is not the authorization server's identifier ${oneLine(identifier)}`,
          `make "issuer" exactly ${identifier}, or list the issuer in the protected resource metadata's authorization_servers`,
        ),
      );
  }
  const found0 = { issuer: issuer ?? identifier, scopes: scopes ?? (Array.isArray(metadata.scopes_supported) ? metadata.scopes_supported.map(String) : undefined) };
  if (options.grant && options.grant !== 'authorization_code') {
    const problem = machineGrantProblem(metadata, options.grant);
    return problem ? broken(problem) : finish('required', { ...found0, ...(options.clientId && { registration: 'pre-registered' as const }) });
  }
  const methods = Array.isArray(metadata.code_challenge_methods_supported) ? metadata.code_challenge_methods_supported.map(String) : undefined;
  if (!methods?.includes('S256'))
    return broken(
      brokenRule(
        'no-s256',
        methods ? `code_challenge_methods_supported lists ${methods.map(oneLine).join(', ') || 'nothing'}, not S256` : 'the metadata has no code_challenge_methods_supported',
        'support PKCE with S256 and list it: "code_challenge_methods_supported": ["S256"]',
      ),
    );
  const missing = ['authorization_endpoint', 'token_endpoint'].filter((key) => typeof metadata[key] !== 'string' || !parseUrl(metadata[key]));
  if (missing.length > 0) return broken(brokenRule('endpoints-missing', `the metadata has no ${missing.join(' and ')}`, `add ${missing.join(' and ')} to the authorization server metadata`));
  const found = found0;
  const registration = await checkRegistration(tracer, metadata, found.issuer, { clientId: options.clientId, probe: options.probe, resource, scopes: found.scopes });
  if ('rule' in registration) return broken(registration);
  return finish('required', { ...found, registration: registration.how });
}

function describeResourceMetadata(json: Record<string, unknown>): string {
  const servers = Array.isArray(json.authorization_servers) ? json.authorization_servers.map(String) : [];
  const scopes = Array.isArray(json.scopes_supported) ? ` · scopes_supported: ${json.scopes_supported.join(' ')}` : '';
  return `resource ${String(json.resource ?? '(none)')} · authorization_servers: [${servers.join(', ')}]${scopes}`;
}

function describeServerMetadata(json: Record<string, unknown>): string {
  const methods = Array.isArray(json.code_challenge_methods_supported) ? json.code_challenge_methods_supported.map(String) : [];
  const parts = [`issuer ${String(json.issuer ?? '(none)')}`, methods.includes('S256') ? 'S256 listed' : `S256 not listed (${methods.join(', ') || 'no code_challenge_methods_supported'})`];
  if (typeof json.registration_endpoint === 'string') parts.push(`registration_endpoint ${json.registration_endpoint}`);
  if (json.client_id_metadata_document_supported === true) parts.push('client ID metadata documents supported');
  if (json.authorization_response_iss_parameter_supported === true) parts.push('iss in responses (RFC 9207)');
  return parts.join(', ');
}

function notJson(id: 'prm-not-json' | 'as-metadata-not-json', what: string, answer: BoundedAnswer): BrokenRule {
  return brokenRule(
    id,
    `${what} at ${maskSecrets(answer.url)} is not a JSON object (${answer.headers.get('content-type') ?? 'no content-type'})`,
    `answer with Content-Type: application/json and a JSON object`,
  );
}

function answered(answer: BoundedAnswer | { error: string }): string {
  return 'error' in answer ? `gave no answer (${answer.error})` : `answered ${answer.status}`;
}

export type { AuthStage, AuthStageName } from './auth-tracer.js';

/** The auth state of a server in one word, for `mcp list --check`: none, required, broken (with the rule), or unknown. */
export function summarizeAuth(trace: AuthTrace): { state: 'none' | 'required' | 'broken' | 'unknown'; rule?: string; issuer?: string } {
  if (trace.outcome === 'broken') return { state: 'broken', rule: trace.rule!.id };
  if (trace.outcome === 'required') return { state: 'required', issuer: trace.issuer };
  return { state: trace.outcome === 'none' ? 'none' : 'unknown' };
}
