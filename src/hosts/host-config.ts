import { existsSync } from 'node:fs';
import { parse } from 'node:path';
import { buildConfig } from '../config/build-config.js';
import type { ValidConfigMemo } from '../config/load-config.js';
import type { ServerRefusal, ToolrunConfig } from '../config/config-types.js';
import { childPath } from '../config/config-problems.js';
import { refusalOf, refusedEntry } from './refused-servers.js';
import { ConfigError, UsageError } from '../errors.js';
import { findHostFiles, mergeHostServers, type HostFileReport } from './find-hosts.js';
import { hostFiles, hostPlaces, type HostPlaces } from './host-paths.js';
import { hostLaunch, type HostLaunch } from './host-launch.js';
import { HOST_NAMES, HOST_SCOPES, type HostName, type HostScope } from './host-types.js';

// What commands use of the hosts, from this one module: every command that reads a host imports it
// (and nothing else of src/hosts that reads files), so the bundler keeps the readers, paths and this
// file in one chunk, and `--host` loads one file, not three (each ESM load costs ~3 ms at startup).
export { findHostFiles, hostsHavingServer, mergeHostServers } from './find-hosts.js';
export { hostFiles, hostPlaces } from './host-paths.js';

/** `--host NAME[:SCOPE]` (or `mcp tap --wrap`'s), checked: an unknown host or scope is a usage error listing the valid ones. */
export function parseHostOption(value: string, option = '--host'): { host: HostName; scope?: HostScope } {
  const [name, scope, extra] = value.split(':');
  if (!(HOST_NAMES as readonly string[]).includes(name!) || extra !== undefined) {
    throw new UsageError(`unknown host '${name}'; ${option} takes one of: ${HOST_NAMES.join(', ')} (optionally :user, :project or :local)`);
  }
  if (scope !== undefined && !(HOST_SCOPES as readonly string[]).includes(scope)) throw new UsageError(`unknown scope '${scope}' in ${option} ${value}; scopes: ${HOST_SCOPES.join(', ')}`);
  return { host: name as HostName, scope: scope as HostScope | undefined };
}

/**
 * The files of `--host NAME[:SCOPE]` (or `hosts import NAME[:SCOPE]`), read. A file the host could
 * not read either is set apart (`broken`), and the others serve; when every file found is broken
 * there is nothing to run: a config error naming the first.
 */
export async function readHostReports(
  option: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ host: HostName; scope?: HostScope; reports: HostFileReport[]; broken: HostFileReport[]; places: ReturnType<typeof hostPlaces> }> {
  const { host, scope } = parseHostOption(option);
  const places = hostPlaces(env, cwd);
  const found = await foundHostReports(places, host, scope);
  const broken = found.filter((report) => report.problems.length > 0 && report.servers.length === 0);
  const reports = found.filter((report) => !broken.includes(report));
  if (reports.length === 0) throw new ConfigError(`${host} config ${broken[0]!.path}: ${broken[0]!.problems[0]}`, { file: broken[0]!.path });
  return { host, scope, reports, broken, places };
}

/** The host's files (all its scopes, or the one asked for), read; none at all is a config error saying where toolrun looked. */
export async function foundHostReports(places: HostPlaces, host: HostName, scope: HostScope | undefined): Promise<HostFileReport[]> {
  const reports = (await findHostFiles(places, host)).filter((report) => scope === undefined || report.scope === scope);
  if (reports.length > 0) return reports;
  const looked = [
    ...new Set(
      hostFiles(places, host)
        .filter((file) => scope === undefined || file.scope === scope)
        .map((file) => file.path),
    ),
  ];
  throw new ConfigError(
    `no ${host}${scope ? `:${scope}` : ''} config found; looked in: ${looked.slice(0, 6).join(', ')}${looked.length > 6 ? ', …' : ''}. Run 'toolrun hosts' to see which hosts have one.`,
  );
}

/**
 * The config a command runs with `--host`: the host's servers (all its scopes merged as the host
 * does, local over project over user, or the one scope asked for) as `mcpServers`, with every
 * builtin tool and default setting. A disabled server is left out. One the host would not start
 * (not approved, rejected, untrusted), or that only the host can start (a host-only variable, an
 * entry toolrun cannot read), is kept with its refusal: named wherever servers are, never started.
 * One bad entry or file never blocks the others; what was set aside is in `hostNotes`.
 * Stdio servers start as the host starts them (environment, PATH, folder) unless `terminalEnv`.
 */
export async function loadHostConfig(option: string, env: NodeJS.ProcessEnv, cwd: string, options: { validConfigs?: ValidConfigMemo; terminalEnv?: boolean } = {}): Promise<ToolrunConfig> {
  const { validConfigs } = options;
  const { host, reports, broken, places } = await readHostReports(option, env, cwd);
  const merged = mergeHostServers(reports);
  const mcpServers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const refused = new Map<string, ServerRefusal>();
  for (const [name, server] of merged) {
    if (server.disabled) continue;
    const refusal = refusalOf(server, host) ?? missingEnvFile(server.entry, host);
    if (refusal) refused.set(name, refusal);
    else mcpServers[name] = server.entry;
  }
  // The file of highest precedence names the config (errors, the session holder's key).
  const main = reports.reduce((best, report) => (report.scope === 'local' || (report.scope === 'project' && best.scope === 'user') ? report : best));
  // As for a toolrun config: the checker (Ajv, ~5 ms) runs once per text this build found valid.
  // The way servers start is part of it: a holder started with --terminal-env is not the host's (session-key.ts).
  const checkedText = JSON.stringify({ host: option, terminalEnv: options.terminalEnv === true, mcpServers });
  const known = validConfigs?.has(checkedText) ?? false;
  const { config, problems } = known
    ? { config: buildConfig({ mcpServers }, main.path, cwd, () => false), problems: [] }
    : (await import('../config/check-config.js')).checkConfig({ mcpServers }, main.path, cwd);
  if (!known && problems.length === 0) validConfigs?.add(checkedText);
  // An entry toolrun cannot read is set apart with the checker's words; the others still run.
  for (const problem of problems) {
    const name = [...merged.keys()]
      .filter((candidate) => problem.path === childPath('mcpServers', candidate) || problem.path.startsWith(childPath('mcpServers', candidate)))
      .sort((a, b) => b.length - a.length)[0];
    if (name === undefined) throw new ConfigError(`${host} config ${main.path}: ${problem.path}: ${problem.message}`, { file: main.path });
    if (refused.has(name)) continue;
    const server = merged.get(name)!;
    const file = server.report.path;
    const place = `${server.place ?? childPath('mcpServers', name)}${problem.path.slice(childPath('mcpServers', name).length)}`;
    refused.set(name, {
      kind: 'host-only-entry',
      reason: `its entry in ${file} is not one toolrun can start: ${place}: ${problem.message}`,
      fix: `fix the entry in ${file}`,
    });
  }
  for (const [name, refusal] of refused) config.servers[name] = refusedEntry(name, merged.get(name)!.entry, refusal);
  config.hostNotes = broken.map((report) => `${host} config ${report.path} set aside: ${report.problems[0]} (its servers are not started; the other files' are)`);
  const launch = hostLaunch(host, places.platform);
  // Messages about an entry name the host's file and keys, and suggest only syntax the host reads.
  for (const [name, server] of merged) {
    const raw = config.servers[name];
    if (raw && !raw.refused)
      raw.origin = { file: server.report.path, path: server.place ?? childPath('mcpServers', name), fields: server.fields, withoutDefaults: launch.variableDefaults ? undefined : launch.title };
  }
  config.host = { launch, terminalEnv: options.terminalEnv === true };
  if (!options.terminalEnv) startAsHost(config, merged, launch, places.home, cwd);
  config.sourceText = checkedText;
  return config;
}

/** The host does not start a server whose envFile is missing (VS Code: "Failed to read envFile"), nor does toolrun. */
function missingEnvFile(entry: Record<string, unknown>, host: HostName): ServerRefusal | undefined {
  if (typeof entry.envFile !== 'string' || entry.envFile.includes('${') || existsSync(entry.envFile)) return undefined;
  return { kind: 'host-only-entry', reason: `its envFile ${entry.envFile} does not exist, so ${host} does not start it either`, fix: 'create the file, or remove envFile from the entry' };
}

/**
 * Each stdio server started the host's way: the host's environment and PATH, and, when its entry
 * names no cwd, the folder the host starts servers in (its own, the project's, the home folder).
 */
function startAsHost(config: ToolrunConfig, merged: ReturnType<typeof mergeHostServers>, launch: HostLaunch, home: string, cwd: string): void {
  for (const [name, server] of merged) {
    const raw = config.servers[name];
    if (!raw || raw.transport !== 'stdio' || raw.refused) continue;
    raw.launch = launch;
    // A host that ignores the entry's cwd (Claude Code, Zed) starts the server in its own folder all the same.
    if (server.entry.cwd !== undefined && launch.entryCwd !== 'ignored') continue;
    const hostCwd = launch.cwd === 'caller' ? cwd : launch.cwd === 'home' ? home : launch.cwd === 'project' ? server.report.projectDir : parse(home).root || '/';
    if (hostCwd === raw.cwd) continue;
    raw.terminalCwd = raw.cwd;
    raw.cwd = hostCwd;
  }
}
