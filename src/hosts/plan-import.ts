import { isAbsolute, resolve } from 'node:path';
import { hostLaunch } from './host-launch.js';
import { checkConfig } from '../config/check-config.js';
import { ConfigError, UsageError } from '../errors.js';
import type { HostFileReport } from './find-hosts.js';
import type { HostName, HostServer } from './host-types.js';
import type { ServerToWrite } from './import-into-config.js';

/** A host's server as mergeHostServers gives it: the entry and the file it came from. */
export type MergedServer = HostServer & { report: HostFileReport };

/** A server to import: its toolrun entry, where it came from, and what a person should know about it. */
export interface PlannedServer extends ServerToWrite {
  from: string;
  /** Written with `"disabled": true`: disabled in the host, or needing a value only the host has. */
  disabled: boolean;
  /** One line each: fields not carried over, variables to set, why it is written disabled. */
  notes: string[];
}

/** A server of the host left out, and why. */
export interface SkippedServer {
  name: string;
  from: string;
  reason: string;
}

/** Which of a host's servers `hosts import` writes, and which it leaves out (SPEC §13). */
export interface ImportPlan {
  servers: PlannedServer[];
  skipped: SkippedServer[];
}

/**
 * The servers to import from `merged` (one host's, merged as the host does): the ones named, or all.
 *
 * What the host does not start is not started by the import either, and a config the import wrote
 * must still pass `toolrun validate`:
 * - a server disabled in the host is skipped when importing all of them (toolrun's `--host` skips it
 *   too); named, it is imported with `"disabled": true`, which toolrun honours the same way;
 * - a server that needs a value only the host can fill in (`${input:token}`) would make every
 *   `toolrun validate` of the file fail (toolrun refuses such a variable rather than pass its text
 *   on), so it is skipped when importing all; named, it is imported disabled, its entry whole, for
 *   the person to put a value or `${NAME}` in the variable's place and remove `"disabled"`.
 * - a server the host would not start (a project server not approved or rejected, an untrusted
 *   project) or that only the host can start (a Zed extension's) is never imported, named or not.
 * Fields toolrun cannot honour are not in the entries the readers give: each is named in a note.
 * Variables stay variables (`${GH_TOKEN}`): no value is read from the environment, only whether it
 * is set, for a note. A name toolrun cannot take, or an entry its schema refuses, is skipped (named:
 * a config error, nothing written).
 */
export function planImport(host: HostName, merged: ReadonlyMap<string, MergedServer>, requested: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ImportPlan {
  const named = requested.length > 0;
  const unknown = requested.filter((name) => !merged.has(name));
  if (unknown.length > 0) {
    const known = [...merged.keys()];
    throw new UsageError(
      `${host} has no server ${unknown.map((name) => `'${name}'`).join(', ')}; ${known.length > 0 ? `its servers: ${known.join(', ')}` : 'its config has no servers'}. Run 'toolrun hosts' to see them.`,
    );
  }
  const plan: ImportPlan = { servers: [], skipped: [] };
  for (const name of named ? [...new Set(requested)] : merged.keys()) {
    const server = merged.get(name)!;
    const from = server.report.path;
    const unresolved = [...new Set(server.unresolved)];
    // What the host itself would not start (not approved, rejected, untrusted) is never imported, even named.
    if (server.gate && !server.disabled) {
      plan.skipped.push({ name, from, reason: `${server.gate.reason}; ${server.gate.fix}` });
      continue;
    }
    if (server.hostOnly) {
      plan.skipped.push({ name, from, reason: `${server.hostOnly.reason}; ${server.hostOnly.fix}` });
      continue;
    }
    const problem = entryProblem(name, server.entry);
    if (problem) {
      if (named) throw new ConfigError(`${host} server '${name}' (${from}) cannot be a toolrun entry: ${problem}`, { file: from });
      plan.skipped.push({ name, from, reason: `not a valid toolrun entry: ${problem}` });
      continue;
    }
    if (!named && server.disabled) {
      plan.skipped.push({ name, from, reason: `disabled in ${host}; name it to import it (kept disabled)` });
      continue;
    }
    if (!named && unresolved.length > 0) {
      plan.skipped.push({ name, from, reason: `uses ${unresolved.join(', ')}, which only ${host} can fill in; name it to import it disabled` });
      continue;
    }
    const notes: string[] = [];
    const entry = withAbsoluteCwd(host, server, cwd, notes);
    if (server.unsupported.length > 0) notes.push(`not carried over (toolrun does not honour it): ${server.unsupported.join(', ')}`);
    if (server.disabled) notes.push(`imported disabled, as it is in ${host}: remove "disabled" to use it`);
    if (unresolved.length > 0) notes.push(`imported disabled: it uses ${unresolved.join(', ')}, which only ${host} can fill in; put a value or \${NAME} in its place and remove "disabled"`);
    const unset = unsetVariables(server.entry, env);
    if (unset.length > 0) notes.push(`needs ${unset.join(', ')}, not set here: toolrun refuses to start it until ${unset.length === 1 ? 'it is' : 'they are'} set`);
    const disabled = server.disabled || unresolved.length > 0;
    plan.servers.push({ name, entry: disabled ? { ...entry, disabled: true } : entry, from, disabled, notes });
  }
  return plan;
}

/**
 * The entry with its cwd as toolrun must read it: toolrun resolves a relative cwd against its config's
 * folder, the host against its own: the workspace (VS Code, Continue, Roo, Cursor, opencode), or the
 * folder it was started in (Codex, Gemini CLI, Cline…), taken as the project's for a project file and
 * as the current folder for a user file. A host that ignores cwd (Claude Code, Zed) gets none.
 */
function withAbsoluteCwd(host: HostName, server: MergedServer, cwd: string, notes: string[]): Record<string, unknown> {
  const value = server.entry.cwd;
  if (typeof value !== 'string') return server.entry;
  const launch = hostLaunch(host, process.platform);
  if (launch.entryCwd === 'ignored') {
    const { cwd: _ignored, ...rest } = server.entry;
    notes.push(`"cwd" not carried over: ${launch.title} ignores it and starts the server in its own folder`);
    return rest;
  }
  if (isAbsolute(value) || value.includes('${')) return server.entry;
  const base = launch.cwd === 'project' || server.report.scope !== 'user' ? server.report.projectDir : cwd;
  const absolute = resolve(base, value);
  notes.push(`relative "cwd" ${JSON.stringify(value)} made absolute (${absolute}), as ${launch.title} resolves it from ${base}`);
  return { ...server.entry, cwd: absolute };
}

/** The first problem toolrun's config schema finds with this entry under this name, if any. */
function entryProblem(name: string, entry: Record<string, unknown>): string | undefined {
  const [first] = checkConfig({ mcpServers: { [name]: entry } }, null, '/').problems;
  return first && `${first.path}: ${first.message}`;
}

// `${NAME}` and `${env:NAME}` with no default; `$${` is a literal, not a reference.
const REFERENCE_WITHOUT_DEFAULT = /(?<!\$)\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Variables the entry needs, with no default, that this environment does not set (names only). */
function unsetVariables(entry: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') for (const match of value.matchAll(REFERENCE_WITHOUT_DEFAULT)) names.add(match[1]!);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(entry);
  // An empty value is set: toolrun passes it on as it is.
  return [...names].filter((name) => env[name] === undefined);
}
