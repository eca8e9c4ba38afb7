import type { HostGate } from './host-types.js';

/**
 * Whether Claude Code starts a server, from its settings: the approvals of a project's `.mcp.json`
 * servers and the managed allow/deny lists. Pure: the files are gathered in claude-code-settings.ts.
 *
 * The rules, from Claude Code's own docs (code.claude.com/docs/en/mcp "Project scope",
 * .../settings "enableAllProjectMcpServers", .../managed-mcp; read at the ericbuess/claude-code-docs
 * mirror @ec68a5b, Aug 2026, Claude Code 2.1.238) and its CHANGELOG (anthropics/claude-code@5cfc0a1):
 * - "Claude Code prompts for approval in interactive sessions before using project-scoped servers from
 *   `.mcp.json` files"; until approved a server is "⏸ Pending approval" and does not start.
 * - `disabledMcpjsonServers`: "A rejection in any settings file applies, including a project
 *   `.claude/settings.json` … Rejection takes precedence over `enabledMcpjsonServers` and
 *   `enableAllProjectMcpServers`."
 * - "A cloned repository can't approve its own servers: `enableAllProjectMcpServers` or
 *   `enabledMcpjsonServers` committed to the project's `.claude/settings.json` is ignored in an untrusted
 *   folder" (CHANGELOG 2.1.196); `.claude/settings.local.json` counts only after trust too.
 * - `enableAllProjectMcpServers`: "In a trusted folder, a `false` in a higher-precedence file overrides a
 *   `true` in a lower one; in a folder you haven't trusted, a `true` in any honored file is enough."
 * - Trust: `projects["<path>"].hasTrustDialogAccepted` in `~/.claude.json`, the path being "the repository
 *   root, or the folder itself outside a repository".
 * - Older versions read the approval lists from `~/.claude.json`'s `projects["<path>"]` entry
 *   (anthropics/claude-code#16402, #24657): read as an approval source of the user's own.
 * - Managed `deniedMcpServers` / `allowedMcpServers`: entries `{serverName}`, `{serverCommand: [...]}`
 *   (the command and its arguments, matched exactly) or `{serverUrl}` (`*` wildcards); "Nothing overrides
 *   a denylist match"; an allowlist that is set and does not match blocks the server, and a `serverName`
 *   match counts only when the list has no `serverCommand` (stdio) / `serverUrl` (remote) entry.
 */

/** One settings file Claude Code reads, highest precedence first in the list given to the rules. */
export interface ClaudeSettings {
  /** managed > local (.claude/settings.local.json) > project (.claude/settings.json) > user > state (~/.claude.json). */
  scope: 'managed' | 'local' | 'project' | 'user' | 'state';
  path: string;
  value: Record<string, unknown>;
}

export interface ClaudeServerFacts {
  name: string;
  /** The host scope of the entry: only `project` (.mcp.json) servers need an approval. */
  scope: 'user' | 'project' | 'local';
  /** The stdio command and its arguments, or the remote URL, as written (for the managed lists). */
  command?: string[];
  url?: string;
}

/** How to approve a pending server, in Claude Code's own words. */
const APPROVE = (root: string) => `approve it in Claude Code: run \`claude\` in ${root} and accept it (or enable it in /mcp)`;

/**
 * The gate of one server (undefined: Claude Code starts it), and the approval that lets a project
 * server start (for `hosts`). `settings` is highest precedence first; `trusted` is the folder's trust.
 */
export function claudeCodeGate(server: ClaudeServerFacts, settings: readonly ClaudeSettings[], trusted: boolean, root: string): { gate?: HostGate; approved?: string } {
  const denied = managedListGate(server, settings);
  if (denied) return { gate: denied };
  if (server.scope !== 'project') return {};
  const rejectedIn = settings.find((file) => listOf(file.value.disabledMcpjsonServers).includes(server.name));
  if (rejectedIn) {
    return {
      gate: {
        state: 'rejected',
        reason: `rejected in Claude Code: listed in disabledMcpjsonServers of ${rejectedIn.path}`,
        fix: `Claude Code does not start it either; to use it, remove it from that list (or run \`claude mcp reset-project-choices\` in ${root}) and approve it in Claude Code`,
      },
    };
  }
  // What a cloned repository writes for itself counts only once the person trusted the folder.
  const honored = settings.filter((file) => trusted || (file.scope !== 'project' && file.scope !== 'local'));
  const enabledIn = honored.find((file) => listOf(file.value.enabledMcpjsonServers).includes(server.name));
  if (enabledIn) return { approved: `enabledMcpjsonServers in ${enabledIn.path}` };
  const all = trusted ? honored.find((file) => typeof file.value.enableAllProjectMcpServers === 'boolean') : honored.find((file) => file.value.enableAllProjectMcpServers === true);
  if (all?.value.enableAllProjectMcpServers === true) return { approved: `enableAllProjectMcpServers in ${all.path}` };
  const selfApproved = !trusted && settings.some((file) => (file.scope === 'project' || file.scope === 'local') && approves(file, server.name));
  return {
    gate: {
      state: 'pending-approval',
      reason: selfApproved
        ? `pending approval in Claude Code: only the project's own ${settings.find((file) => (file.scope === 'project' || file.scope === 'local') && approves(file, server.name))!.path} approves it, which Claude Code ignores until you trust ${root}`
        : `pending approval in Claude Code: a project's .mcp.json server starts only once you approve it`,
      fix: APPROVE(root),
    },
  };
}

function approves(file: ClaudeSettings, name: string): boolean {
  return listOf(file.value.enabledMcpjsonServers).includes(name) || file.value.enableAllProjectMcpServers === true;
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

type ListEntry = { serverName?: unknown; serverCommand?: unknown; serverUrl?: unknown };

/** The managed deny list, then the allow list (both merged from every file that has them). */
function managedListGate(server: ClaudeServerFacts, settings: readonly ClaudeSettings[]): HostGate | undefined {
  const entries = (key: string) => settings.flatMap((file) => (Array.isArray(file.value[key]) ? (file.value[key] as unknown[]).map((entry) => ({ entry: entry as ListEntry, file })) : []));
  const deniedBy = entries('deniedMcpServers').find(({ entry }) => matchesAny(server, entry));
  if (deniedBy) {
    return { state: 'denied', reason: `denied by deniedMcpServers in ${deniedBy.file.path}`, fix: 'Claude Code never starts it; ask whoever manages that file' };
  }
  const setIn = settings.filter((file) => Array.isArray(file.value.allowedMcpServers));
  if (setIn.length === 0) return undefined;
  const allowed = entries('allowedMcpServers');
  const kindKey = server.url !== undefined ? 'serverUrl' : 'serverCommand';
  const byKind = allowed.filter(({ entry }) => entry[kindKey] !== undefined);
  const matched = byKind.length > 0 ? byKind.some(({ entry }) => matchesAny(server, entry)) : allowed.some(({ entry }) => entry.serverName === server.name);
  if (matched) return undefined;
  return { state: 'denied', reason: `not in allowedMcpServers of ${setIn.map((file) => file.path).join(', ')}`, fix: 'Claude Code never starts it; ask whoever manages that file to allow it' };
}

function matchesAny(server: ClaudeServerFacts, entry: ListEntry): boolean {
  if (typeof entry.serverName === 'string') return entry.serverName === server.name;
  if (Array.isArray(entry.serverCommand))
    return server.command !== undefined && entry.serverCommand.length === server.command.length && entry.serverCommand.every((word, index) => word === server.command![index]);
  if (typeof entry.serverUrl === 'string' && server.url !== undefined) return wildcard(entry.serverUrl).test(server.url);
  return false;
}

/** `https://*.example.com/*` as a whole-string pattern; the host part case-insensitively, as Claude Code compares hosts. */
function wildcard(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
}
