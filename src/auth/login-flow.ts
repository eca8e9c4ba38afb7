import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { AuthFlowError } from './auth-errors.js';
import { authWarning } from './auth-warnings.js';
import { authorizeRefusesClient, ForgottenClientError } from './stored-client-check.js';
import { limitedAuthFetch } from './auth-request-limits.js';
import { listenForCallback } from './callback-listener.js';
import { dpopTokenFetch } from './dpop-token-fetch.js';
import { codeOfCallback } from './check-callback.js';
import { isMachineGrant } from './machine-grants.js';
import { obtainMachineTokens } from './machine-token.js';
import { StoredOAuthProvider } from './provider.js';
import { readChallenge, type Challenge } from './read-challenge.js';
import { checkServerScope } from './scope-syntax.js';
import type { AuthServer } from './token-refresh.js';
import type { AuthRecord, TokenStore } from './token-store.js';
import { ToolrunError, UsageError } from '../errors.js';

export interface LoginOptions {
  server: AuthServer & { headers: Record<string, string> };
  store: TokenStore;
  /** `--callback-port`, over the entry's `oauth.callbackPort` and the port kept with the registration. */
  callbackPort?: number;
  /** `--scope`, over the entry's `oauth.scope` and the server's challenge. */
  scope?: string;
  /** Opens the authorization URL in a browser, or shows it (`--no-browser`). */
  openUrl: (url: URL) => Promise<void>;
  /** `--no-browser`: the redirected URL pasted by the user, raced against the loopback callback. */
  pastedUrl?: Promise<string>;
  signal?: AbortSignal;
  /** How long a person may take to consent. */
  timeoutMs?: number;
}

const LOGIN_TIMEOUT_MS = 5 * 60_000;

/**
 * `auth login`: the MCP authorization flow through the SDK's auth() (discovery, registration, PKCE,
 * `resource`), plus what it lacks (issuer and S256 checks in the provider, state and RFC 9207 `iss`
 * on the redirect), ending with tokens in the store. Returns what is stored now.
 */
export async function loginToServer(options: LoginOptions): Promise<AuthRecord> {
  const { server, store } = options;
  // Every request of the flow: a timeout and a cap on what is read (a stalled or flooding authorization server).
  // Token requests carry a DPoP proof when the tokens are to be DPoP-bound (the provider decides, once discovery has run).
  let provider: StoredOAuthProvider | undefined;
  const fetchFn = dpopTokenFetch(limitedAuthFetch(), () => provider?.dpopKeyForTokenRequests());
  const challenge = await readChallenge(server, options.signal);
  const scope = options.scope ?? server.oauth?.scope ?? checkServerScope(challenge.scope, server.name, 'its 401 challenge');
  if (isMachineGrant(server.oauth?.grant ?? 'authorization_code')) {
    // A new token whatever is stored (the login asks anew), got as any command would get it.
    provider = new StoredOAuthProvider({ server, store, mode: 'login' });
    await obtainMachineTokens(store, provider, { resourceMetadataUrl: challenge.resourceMetadataUrl, scope, offersDpop: challenge.offersDpop }, { fresh: true }).catch(
      unlessNoLoginNeeded(challenge, server.name, provider),
    );
    return provider.current;
  }
  const keptPort = portOf(store.read(server.name, server.url)?.redirectUrl);
  // Only the redirect of this login (its state) ends the wait; a pasted URL is checked by codeOfCallback.
  const listener = await listenForCallback(options.callbackPort ?? server.oauth?.callbackPort ?? keptPort ?? 0, (url) => url.searchParams.get('state') === provider?.expectedState);
  try {
    provider = new StoredOAuthProvider({ server, store, mode: 'login', redirectUrl: listener.redirectUrl, scope, onAuthorizationUrl: (url) => openUnlessRefused(url) });
    provider.resourceOffersDpop = challenge.offersDpop === true;
    // A registration kept from an earlier login (not the config's client): checked at /authorize before a browser waits on it.
    const keptClientId = server.oauth?.clientId ? undefined : provider.clientInformation()?.client_id;
    const openUnlessRefused = async (url: URL) => {
      const refused = keptClientId && url.searchParams.get('client_id') === keptClientId ? await authorizeRefusesClient(url, fetchFn) : undefined;
      if (refused) throw new ForgottenClientError(refused);
      return options.openUrl(url);
    };
    const start = () => auth(provider!, { serverUrl: server.url, resourceMetadataUrl: challenge.resourceMetadataUrl, scope, fetchFn }).catch(unlessNoLoginNeeded(challenge, server.name, provider!));
    const started = await start().catch((error: unknown) => {
      if (!(error instanceof ForgottenClientError)) throw error;
      authWarning(`toolrun's registration for '${server.name}' was refused by the authorization server (HTTP ${error.status} at its authorization endpoint): registering again`);
      provider!.invalidateCredentials('client');
      return start();
    });
    if (started === 'AUTHORIZED') return provider.current;
    const redirected = await firstOf([listener.received, ...(options.pastedUrl ? [options.pastedUrl.then(parsePasted)] : [])], options.timeoutMs ?? LOGIN_TIMEOUT_MS, options.signal);
    const code = codeOfCallback(redirected, provider.expectedState, provider.current.discovery?.authorizationServerMetadata);
    await auth(provider, { serverUrl: server.url, authorizationCode: code, resourceMetadataUrl: challenge.resourceMetadataUrl, scope, fetchFn });
    return provider.current;
  } finally {
    listener.close();
  }
}

/**
 * A server that let the request through and where discovery then found nothing to log in to (the
 * fallback /register answering an HTML 404) needs no login: saying so beats the SDK's "HTTP 404"
 * with a page in it. Exit 2: the command asked for something that does not apply. Any other failure,
 * or one of toolrun's own, stays as it was.
 */
function unlessNoLoginNeeded(challenge: Challenge, name: string, provider: StoredOAuthProvider): (error: unknown) => never {
  return (error) => {
    // Metadata found: an authorization server exists, and its failure is the one to report.
    if (challenge.challenged || error instanceof ToolrunError || error instanceof ForgottenClientError || provider.current.discovery?.authorizationServerMetadata) throw error;
    throw new UsageError(`'${name}' needs no OAuth login: it answered without asking for authorization, and no OAuth metadata was found for it`, { cause: error });
  };
}

function parsePasted(text: string): URL {
  try {
    return new URL(text.trim());
  } catch {
    throw new AuthFlowError('the pasted text is not the redirected URL (it starts with http://127.0.0.1:PORT/callback?code=…)');
  }
}

function portOf(url: string | undefined): number | undefined {
  if (!url) return undefined;
  const port = Number(new URL(url).port);
  return port > 0 ? port : undefined;
}

async function firstOf<T>(promises: Array<Promise<T>>, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AuthFlowError(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    if (signal?.aborted) reject(signal.reason);
    else signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  try {
    return await Promise.race([...promises, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
