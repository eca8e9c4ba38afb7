import { AuthFlowError } from './auth-errors.js';
import type { AuthSession } from './auth-session.js';
import { isResourceNonceChallenge, rememberDpopNonce } from './dpop.js';
import { parseTokenChallenge, type TokenChallenge } from './www-authenticate.js';
import { rebuildPerHop } from '../http/per-hop-headers.js';

/**
 * The fetch a remote transport uses when OAuth may be involved, in both protocol eras. The token is
 * added here (Bearer, or DPoP with a fresh proof: RFC 9449 §7.1); a 401 to a request is answered here,
 * once: a DPoP nonce asked for (§9) is sent once; else a refresh under the cross-process lock (or
 * the token another process refreshed), a machine grant's new token, or a login when nothing is
 * stored, then the same request again. A 403 `insufficient_scope` asks for the union of scopes the
 * same way. The SDK's own handling would refresh without a lock, or start a browser flow an `exec`
 * cannot finish. When no browser can be answered, the session throws "run toolrun auth login
 * SERVER" at once, before any discovery request.
 */
export function authFetch(base: typeof fetch, session: AuthSession): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    let sent = bearerOf(init?.headers) ?? (await session.token());
    const send = async (token: string | undefined) => {
      // Made again for each redirect hop the fetch below follows (a proof names its URL and method).
      const presented = (target: string, verb: string): Headers => rebuildPerHop(session.present(new Headers(init?.headers), token!, verb, target), (hop, hopVerb) => presented(hop.href, hopVerb));
      const headers = token ? presented(url, method) : undefined;
      const response = await base(input, headers ? { ...init, headers } : init);
      rememberDpopNonce(url, response);
      return response;
    };
    let response = await sendWithNonce(send, sent, url);
    if (isChallenge(response, 401)) {
      const challenge = challengeOf(response);
      await response.body?.cancel();
      sent = await session.afterUnauthorized(sent, challenge);
      response = await sendWithNonce(send, sent, url);
      if (isChallenge(response, 401)) {
        const again = challengeOf(response);
        await response.body?.cancel();
        throw session.refused(again);
      }
    }
    if (response.status !== 401) session.noteAccepted(sent);
    // Bounded by the session: a scope set it already asked for is not asked again.
    while (isChallenge(response, 403)) {
      const { params } = challengeOf(response);
      if (params.error !== 'insufficient_scope') break;
      await response.body?.cancel();
      sent = await session.afterInsufficientScope(sent, params.scope);
      response = await send(sent);
    }
    return response;
  };
}

/** Sends; a DPoP `use_dpop_nonce` challenge (RFC 9449 §9) gets the same request once more with the nonce it gave, never a loop. */
async function sendWithNonce(send: (token: string | undefined) => Promise<Response>, token: string | undefined, url: string): Promise<Response> {
  const response = await send(token);
  if (!token || !isResourceNonceChallenge(response)) return response;
  await response.body?.cancel();
  const again = await send(token);
  if (!isResourceNonceChallenge(again)) return again;
  await again.body?.cancel();
  throw new AuthFlowError(`${new URL(url).origin} answered use_dpop_nonce again to a DPoP proof carrying the nonce it had just given (RFC 9449 §9): toolrun stopped after one retry`);
}

function challengeOf(response: Response): TokenChallenge {
  return parseTokenChallenge(response.headers.get('www-authenticate')) ?? { scheme: 'bearer', params: {}, offersDpop: false };
}

function isChallenge(response: Response, status: number): boolean {
  return response.status === status && parseTokenChallenge(response.headers.get('www-authenticate')) !== undefined;
}

function bearerOf(headers: RequestInit['headers']): string | undefined {
  const value = new Headers(headers).get('authorization');
  return value?.match(/^Bearer\s+(\S+)$/i)?.[1];
}
