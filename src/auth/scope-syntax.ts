import { AuthFlowError } from './auth-errors.js';

// RFC 6749 §3.3: scope = scope-token *( SP scope-token ); scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = '[\\x21\\x23-\\x5b\\x5d-\\x7e]+';
const SCOPE = new RegExp(`^${SCOPE_TOKEN}(?: ${SCOPE_TOKEN})*$`);

/** Whether `scope` is a space-separated list of RFC 6749 scope tokens: printable ASCII but `"` and `\`, one space between. */
export function isScopeSyntax(scope: string): boolean {
  return SCOPE.test(scope);
}

/**
 * A scope a server or an authorization server sent (a challenge's `scope`, the scopes of a token or an
 * authorization URL), refused unless it is RFC 6749 scope syntax: it becomes part of the login toolrun
 * runs or suggests (`toolrun auth login SERVER --scope '…'`), and a line break, a quote or a control
 * character there is an attempt on the person who pastes it, not a scope.
 */
export function checkServerScope(scope: string | undefined, server: string, from: string): string | undefined {
  if (scope === undefined || scope === '' || isScopeSyntax(scope)) return scope || undefined;
  throw new AuthFlowError(
    `'${server}': ${from} asks for the scope ${JSON.stringify(scope)}, which is not RFC 6749 scope syntax (printable ASCII tokens but " and \\, one space apart): toolrun refuses it`,
  );
}

/** Whether the scopes granted hold every scope wanted (nothing wanted: yes). */
export function coversScopes(granted: string | undefined, wanted: string | undefined): boolean {
  const have = new Set((granted ?? '').split(' '));
  return (wanted ?? '').split(' ').every((item) => !item || have.has(item));
}
