import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthStage, AuthStageName } from './auth-tracer.js';
import { oneLine } from './auth-tracer.js';
import type { AuthServer } from './auth-server.js';
import { dpopKeyThumbprint } from './dpop.js';
import { obtainMachineTokens, type AuthChallengeHints } from './machine-token.js';
import { StoredOAuthProvider } from './provider.js';
import { isUsable } from './token-expiry.js';
import type { TokenStore } from './token-store.js';
import { maskSecrets } from '../secrets/mask-secrets.js';

export interface MachineTokenTrace {
  /** Each request made to get the token (none when a usable one was stored). */
  stages: AuthStage[];
  /** One line: the grant, where its credential comes from, the client's authentication, the token's binding. */
  summary: string;
}

/**
 * Doctor's look at a grant with no person (SPEC §21): the token is got as any command would get it
 * (a usable stored one is kept, no request made), each request recorded: its stage, URL, what the
 * answer said (token type, expiry, scope, or the OAuth error), never a key, an assertion or a token.
 */
export async function traceMachineTokens(store: TokenStore, server: AuthServer, hints: AuthChallengeHints = {}): Promise<MachineTokenTrace> {
  const stages: AuthStage[] = [];
  const provider = new StoredOAuthProvider({ server, store, mode: 'connect' });
  const stored = isUsable(provider.current.tokens);
  try {
    await obtainMachineTokens(store, provider, hints, { wrapFetch: (base) => recordingFetch(base, stages, server.oauth?.idp?.issuer) });
  } catch (error) {
    // The requests made before the refusal are what shows why: they go with the error.
    throw Object.assign(error as object, { stages });
  }
  const record = provider.current;
  const bound = record.dpop && record.tokens?.token_type?.toLowerCase() === 'dpop';
  const parts = [
    `grant ${provider.grant}${credentialSource(server)}`,
    `client authentication ${record.clientAuthentication ?? 'none'}`,
    bound ? `DPoP-bound token (key thumbprint ${dpopKeyThumbprint(record.dpop!)})` : 'bearer token',
    stored ? 'a usable token was stored: no request made' : 'token got and stored',
  ];
  return { stages, summary: parts.join(' · ') };
}

function credentialSource(server: AuthServer): string {
  const oauth = server.oauth ?? {};
  if (oauth.grant === 'jwt_bearer') return ` (assertion from oauth.${oauth.assertionFile !== undefined ? 'assertionFile' : oauth.assertionCommand !== undefined ? 'assertionCommand' : 'assertion'})`;
  if (oauth.grant === 'enterprise')
    return ` (ID token from oauth.idp.${oauth.idp?.idTokenFile !== undefined ? 'idTokenFile' : oauth.idp?.idTokenCommand !== undefined ? 'idTokenCommand' : 'idToken'}, exchanged at ${oauth.idp?.issuer ?? oauth.idp?.tokenEndpoint})`;
  return '';
}

/** Records each request as a stage: the form's grant and what the request carried (named, not shown), and what came back. */
function recordingFetch(base: FetchLike, stages: AuthStage[], identityProvider: string | undefined): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const form = init?.body instanceof URLSearchParams ? init.body : undefined;
    const headers = new Headers(init?.headers);
    const atIdentityProvider = form?.get('grant_type')?.endsWith(':token-exchange') || (identityProvider !== undefined && url.href.startsWith(identityProvider.replace(/\/*$/, '/')));
    const stage: AuthStageName = atIdentityProvider ? 'identity-provider' : form ? 'token' : url.pathname.includes('oauth-protected-resource') ? 'resource-metadata' : 'authorization-server-metadata';
    const sent = form ? `${sentWith(form, headers)} → ` : '';
    const started = performance.now();
    const record = (status: number | null, said: string) =>
      stages.push({
        stage,
        method: init?.method === 'POST' ? 'POST' : 'GET',
        url: maskSecrets(`${url.origin}${url.pathname}`),
        status,
        said: oneLine(`${sent}${said}`),
        ms: Math.round(performance.now() - started),
      });
    try {
      const response = await base(input, init);
      record(response.status, await describeAnswer(response, form !== undefined));
      return response;
    } catch (error) {
      record(null, `no answer: ${(error as Error).message}`);
      throw error;
    }
  };
}

function sentWith(form: URLSearchParams, headers: Headers): string {
  const grant = form.get('grant_type')!.replace(/^urn:ietf:params:oauth:grant-type:/, '');
  const carried = [
    form.has('assertion') && 'an assertion',
    form.has('subject_token') && 'the ID token',
    form.has('client_assertion') && 'a client assertion (private_key_jwt)',
    headers.get('authorization')?.startsWith('Basic ') && 'the client secret (Basic)',
    form.has('client_secret') && 'the client secret',
    headers.has('dpop') && 'a DPoP proof',
  ].filter(Boolean);
  return `grant ${grant}${carried.length ? ` with ${carried.join(', ')}` : ''}`;
}

async function describeAnswer(response: Response, isTokenRequest: boolean): Promise<string> {
  const json = (await response
    .clone()
    .json()
    .catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!isTokenRequest) return `${response.status}`;
  if (typeof json?.error === 'string')
    return `${response.status} · ${json.error}${typeof json.error_description === 'string' ? `: ${json.error_description}` : ''}${response.headers.has('dpop-nonce') ? ' (a DPoP-Nonce given)' : ''}`;
  const facts = [
    typeof json?.token_type === 'string' && `token_type ${json.token_type}`,
    typeof json?.issued_token_type === 'string' && `issued ${json.issued_token_type.replace(/^urn:ietf:params:oauth:token-type:/, '')}`,
    typeof json?.expires_in === 'number' && `expires in ${json.expires_in} s`,
    typeof json?.scope === 'string' && `scope ${json.scope}`,
  ].filter(Boolean);
  return `${response.status}${facts.length ? ` · ${facts.join(', ')}` : ''}`;
}
