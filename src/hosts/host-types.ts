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
}

export interface HostFileRead {
  servers: HostServer[];
  /** Problems of the file as a whole: a parse error with line:column, an unknown shape. */
  problems: string[];
}

/** A pure reader: a host file's text in, toolrun's entries out. */
export type HostReader = (text: string, context: HostReadContext) => HostFileRead;
