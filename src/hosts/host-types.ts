/** What a host reader gives back: toolrun's server entries, and what it could not carry over (SPEC §13). */

/** The hosts `--host` takes, in SPEC §13's order. */
export const HOST_NAMES = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'zed', 'cline', 'roo', 'continue', 'opencode'] as const;
export type HostName = (typeof HOST_NAMES)[number];

/** user: the user's own file; project: a file in the project (shared); local: the user's entries for this project only. */
export type HostScope = 'user' | 'project' | 'local';
export const HOST_SCOPES: readonly HostScope[] = ['user', 'project', 'local'];

/** What a reader knows besides the text. */
export interface HostReadContext {
  /** The project folder this file belongs to (project and local scopes), or the current folder. */
  projectDir: string;
  home: string;
}

/** One server of a host file, as a toolrun `mcpServers` entry. */
export interface HostServer {
  name: string;
  /**
   * A toolrun config entry (command, args, env, cwd, url, headers, type, connectTimeoutMs), its
   * variables already rewritten into toolrun's syntax as the host expands them: `${VAR}`,
   * `${VAR:-default}`, `${env:VAR}`; text the host leaves literal has its `${` escaped (`$${`).
   */
  entry: Record<string, unknown>;
  /** `disabled: true`, `enabled: false`: the host does not start it. */
  disabled: boolean;
  /** Fields toolrun cannot honour, named (`envFile`, `autoApprove`…), for `hosts` and a later import. */
  unsupported: string[];
  /** Host-only variables toolrun cannot fill in (`${input:token}`): the server is refused, never started with them. */
  unresolved: string[];
  /**
   * Why the host itself would not start this server although it is not disabled: a project server
   * still waiting for the user's approval, one the user rejected, a project the user does not trust.
   * toolrun never starts, imports or lists the tools of such a server; it names it with this.
   */
  gate?: HostGate;
  /**
   * An entry only the host can start (a Zed extension's server, an envFile that is missing): named,
   * never started. `extension`: the host starts it through an extension of its own, so it works
   * there and is no failure of the server: shown where all servers are listed, as a gated one is.
   */
  hostOnly?: { reason: string; fix: string; extension?: boolean };
  /** The entry's path in its file, in the host's own keys (`servers.db`, `mcp_servers.db`); default `mcpServers.NAME`. */
  place?: string;
  /** toolrun's field → the host's, where the reader renamed one (`headers.Authorization` → `bearer_token_env_var`). */
  fields?: Record<string, string>;
  /** The host's own approval of a project server (Claude Code's enabledMcpjsonServers…), shown by `hosts`. */
  approved?: string;
}

/** The states in which a host does not start a server it has an entry for. */
export type HostGateState = 'pending-approval' | 'rejected' | 'untrusted' | 'denied';

export interface HostGate {
  state: HostGateState;
  /** One line: why the host does not start it, naming the file that says so. */
  reason: string;
  /** One line: what the person does in the host to have it started (never a change toolrun makes for them). */
  fix: string;
}

export interface HostFileRead {
  servers: HostServer[];
  /** Problems of the file as a whole: a parse error with line:column, an unknown shape. */
  problems: string[];
}

/** One host file found: where, what it holds, and what could not be read. */
export interface HostFileReport extends HostFileRead {
  host: HostName;
  scope: HostScope;
  path: string;
  projectDir: string;
}

/** A pure reader: a host file's text in, toolrun's entries out. */
export type HostReader = (text: string, context: HostReadContext) => HostFileRead;
