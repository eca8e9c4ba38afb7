import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Thrown from the authorization-URL hook: the stored registration is refused, the login registers again. */
export class ForgottenClientError extends Error {
  constructor(readonly status: number) {
    super(`the authorization endpoint refused the stored client (HTTP ${status})`);
    this.name = 'ForgottenClientError';
  }
}

/**
 * Whether the authorization endpoint refuses a login with a registration toolrun kept from an
 * earlier login (the authorization server was reset, or let the registration expire). A person's
 * browser would show an error page and toolrun would wait out the login's timeout for a redirect
 * that never comes; an authorization server cannot send a client it does not know back to its
 * redirect URI (RFC 6749 §4.1.2.1), so it answers 4xx itself. A login page (2xx, or a redirect
 * elsewhere) or no answer: the browser gets the URL as before.
 */
export async function authorizeRefusesClient(url: URL, fetchFn: FetchLike): Promise<number | undefined> {
  try {
    const response = await fetchFn(url, { method: 'GET', redirect: 'manual', headers: { accept: 'text/html' } });
    await response.body?.cancel().catch(() => {});
    return response.status >= 400 && response.status < 500 ? response.status : undefined;
  } catch {
    return undefined;
  }
}
