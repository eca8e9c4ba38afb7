/** Whether a headers object carries an Authorization header (any case): a configured one wins over OAuth. */
export function hasAuthorizationHeader(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
}

/** Whether an entry brings its own credentials (an Authorization header, or user:password in the URL): then there is no OAuth flow to trace. */
export function sendsOwnAuthorization(url: string, headers: Record<string, string>): boolean {
  return hasAuthorizationHeader(headers) || /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*@/i.test(url);
}
