import { perRunState } from '../run-environment.js';
import type { AuthServer } from './token-refresh.js';

/** A remote server's entry as a login needs it: where its 401 challenge is fetched, with the config's headers. */
export type LoginTarget = AuthServer & { headers: Record<string, string> };

/**
 * Runs the `auth login` flow for `server` inside another command, asking for `scope` when given;
 * `refused` is the token the server refused (a login another toolrun finished meanwhile serves only if it got another).
 */
export type InlineLogin = (server: LoginTarget, scope: string | undefined, refused?: string) => Promise<void>;

const login = perRunState((): { inline?: InlineLogin } => ({}));

/**
 * Set by the CLI when someone can answer a browser (SPEC §14: `$BROWSER` names a program, or
 * stdin and stderr are a terminal); unset, a command without a usable token stops at once with exit 4.
 * Kept apart from the flow itself so the CLI sets it without loading the SDK's auth code.
 */
export function allowInlineLogin(inline: InlineLogin | undefined): void {
  login().inline = inline;
}

export function currentInlineLogin(): InlineLogin | undefined {
  return login().inline;
}
