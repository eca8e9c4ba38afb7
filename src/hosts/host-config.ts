import { parse } from 'node:path';
import { buildConfig } from '../config/build-config.js';
import type { ValidConfigMemo } from '../config/load-config.js';
import type { ToolrunConfig } from '../config/config-types.js';
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
 * The files of `--host NAME[:SCOPE]` (or `hosts import NAME[:SCOPE]`), read: none found, or one the
 * host could not read either, is a config error (the command would run with less than the host has).
 */
export async function readHostReports(
  option: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ host: HostName; scope?: HostScope; reports: HostFileReport[]; places: ReturnType<typeof hostPlaces> }> {
  const { host, scope } = parseHostOption(option);
  const places = hostPlaces(env, cwd);
  const reports = await foundHostReports(places, host, scope);
  const broken = reports.find((report) => report.problems.length > 0);
  if (broken) throw new ConfigError(`${host} config ${broken.path}: ${broken.problems[0]}`, { file: broken.path });
  return { host, scope, reports, places };
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
 * builtin tool and default setting. A disabled server is left out; one whose entry needs a variable
 * only the host can fill in is kept but refused when used (a config error naming the variable).
 * Stdio servers start as the host starts them (environment, PATH, folder) unless `terminalEnv`.
 */
export async function loadHostConfig(option: string, env: NodeJS.ProcessEnv, cwd: string, options: { validConfigs?: ValidConfigMemo; terminalEnv?: boolean } = {}): Promise<ToolrunConfig> {
  const { validConfigs } = options;
  const { host, reports, places } = await readHostReports(option, env, cwd);
  const merged = mergeHostServers(reports);
  const mcpServers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, server] of merged) if (!server.disabled) mcpServers[name] = server.entry;
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
  if (problems.length > 0) {
    const [first] = problems;
    const name = first!.path.split('.')[1];
    const from = name && merged.get(name) ? merged.get(name)!.report.path : main.path;
    throw new ConfigError(`${host} config ${from}: ${first!.path}: ${first!.message}`, { file: from });
  }
  for (const [name, server] of merged) {
    if (server.disabled || server.unresolved.length === 0 || !config.servers[name]) continue;
    const variables = [...new Set(server.unresolved)].join(', ');
    config.servers[name].refused =
      `server '${name}' of ${host} (${server.report.path}) uses ${variables}, which only ${host} can fill in; toolrun does not pass it on. Put the value in the entry's env, or use an environment variable.`;
  }
  const launch = hostLaunch(host, places.platform);
  config.host = { launch, terminalEnv: options.terminalEnv === true };
  if (!options.terminalEnv) startAsHost(config, merged, launch, places.home);
  config.sourceText = checkedText;
  return config;
}

/**
 * Each stdio server started the host's way: the host's environment and PATH, and, when its entry
 * names no cwd, the folder the host starts servers in (its own, the project's, the home folder).
 */
function startAsHost(config: ToolrunConfig, merged: ReturnType<typeof mergeHostServers>, launch: HostLaunch, home: string): void {
  for (const [name, server] of merged) {
    const raw = config.servers[name];
    if (!raw || raw.transport !== 'stdio') continue;
    raw.launch = launch;
    if (server.entry.cwd !== undefined || launch.cwd === 'caller') continue;
    raw.terminalCwd = raw.cwd;
    if (launch.cwd === 'home') raw.cwd = home;
    else if (launch.cwd === 'project') raw.cwd = server.report.projectDir;
    else if (launch.cwd === 'root') raw.cwd = parse(home).root || '/';
  }
}
