import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthFlowError } from './auth-errors.js';
import { isTokenNonceChallenge, rememberDpopNonce, type DpopKey } from './dpop.js';

/**
 * The fetch of the token requests (a grant, a refresh) when the tokens are DPoP-bound: each carries a
 * fresh proof (RFC 9449 §5). A `use_dpop_nonce` answer is retried once with the nonce the
 * authorization server gave (§8); a second one stops with one line, never a loop. Other requests
 * (metadata, registration) go as they are. `keyFor` is asked at each request: whether DPoP is in use
 * depends on the authorization server's metadata, found during the flow.
 */
export function dpopTokenFetch(base: FetchLike, keyFor: () => DpopKey | undefined): FetchLike {
  return async (input, init) => {
    const key = isTokenRequest(init) ? keyFor() : undefined;
    if (!key) return base(input, init);
    const url = String(input instanceof Request ? input.url : input);
    const send = () => {
      const headers = new Headers(init?.headers);
      headers.set('dpop', key.proof('POST', url));
      return base(input, { ...init, headers });
    };
    let response = await send();
    rememberDpopNonce(url, response);
    if (!(await isTokenNonceChallenge(response))) return response;
    await response.body?.cancel().catch(() => {});
    response = await send();
    rememberDpopNonce(url, response);
    if (await isTokenNonceChallenge(response)) {
      await response.body?.cancel().catch(() => {});
      throw new AuthFlowError(
        `the authorization server at ${new URL(url).origin} answered use_dpop_nonce again to a DPoP proof carrying the nonce it had just given (RFC 9449 §8): toolrun stopped after one retry`,
      );
    }
    return response;
  };
}

/** A POST of a form with a grant_type: what the SDK and toolrun send to a token endpoint, and nothing else. */
function isTokenRequest(init: RequestInit | undefined): boolean {
  return init?.method === 'POST' && init.body instanceof URLSearchParams && init.body.has('grant_type');
}
