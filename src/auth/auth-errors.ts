import { ToolrunError } from '../errors.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/**
 * A remote server wants an OAuth token toolrun does not have (none stored, the refresh token
 * refused, or more scopes needed) and no one can answer a browser (no `$BROWSER`, no terminal), so
 * the command stops at once with exit 4 and names `toolrun auth login` (SPEC §14).
 */
export class AuthRequiredError extends ToolrunError {
  readonly code = 'AUTH_REQUIRED';
  readonly serverName: string;
  readonly loginCommand: string;
  /** The reason alone, without the command to run. */
  readonly why: string;
  constructor(serverName: string, why: string, options?: { scope?: string; cause?: unknown }) {
    const loginCommand = toolrunCommand('auth', 'login', serverName, ...(options?.scope ? ['--scope', options.scope] : []));
    super('unreachable', `${why}: run \`${loginCommand}\``, options);
    this.name = 'AuthRequiredError';
    this.serverName = serverName;
    this.loginCommand = loginCommand;
    this.why = why;
  }
}

/** An authorization server or protected resource that breaks a rule of the flow (issuer, PKCE, state, iss). */
export class AuthFlowError extends ToolrunError {
  readonly code = 'AUTH_FLOW';
  /** What to do when it is the user's to fix (a refused client secret), not a rule the server breaks. */
  readonly fix?: string;
  /** The problem alone, without the fix. */
  readonly why: string;
  constructor(message: string, options?: { cause?: unknown; fix?: string }) {
    super('unreachable', options?.fix ? `${message}: ${options.fix}` : message, options);
    this.name = 'AuthFlowError';
    this.fix = options?.fix;
    this.why = message;
  }
}
