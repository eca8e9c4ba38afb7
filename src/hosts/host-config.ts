import { buildConfig } from '../config/build-config.js';
import type { ValidConfigMemo } from '../config/load-config.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { ConfigError, UsageError } from '../errors.js';
import { findHostFiles, mergeHostServers } from './find-hosts.js';
import { hostFiles, hostPlaces } from './host-paths.js';
import { HOST_NAMES, HOST_SCOPES, type HostName, type HostScope } from './host-types.js';

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
 * The config a command runs with `--host`: the host's servers (all its scopes merged as the host
 * does, local over project over user, or the one scope asked for) as `mcpServers`, with every
 * builtin tool and default setting. A disabled server is left out; one whose entry needs a variable
 * only the host can fill in is kept but refused when used (a config error naming the variable).
 */
export async function loadHostConfig(option: string, env: NodeJS.ProcessEnv, cwd: string, validConfigs?: ValidConfigMemo): Promise<ToolrunConfig> {
  const { host, scope } = parseHostOption(option);
  const places = hostPlaces(env, cwd);
  const reports = (await findHostFiles(places, host)).filter((report) => scope === undefined || report.scope === scope);
  if (reports.length === 0) {
    const looked = [
      ...new Set(
        hostFiles(places, host)
          .filter((file) => scope === undefined || file.scope === scope)
          .map((file) => file.path),
      ),
    ];
    throw new ConfigError(
      `no ${host}${scope ? ` ${scope}` : ''} config found; looked in: ${looked.slice(0, 6).join(', ')}${looked.length > 6 ? ', …' : ''}. Run 'toolrun hosts' to see which hosts have one.`,
    );
  }
  // A file the host cannot read either: the command would run with less than the host has.
  const broken = reports.find((report) => report.problems.length > 0);
  if (broken) throw new ConfigError(`${host} config ${broken.path}: ${broken.problems[0]}`, { file: broken.path });
  const merged = mergeHostServers(reports);
  const mcpServers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, server] of merged) if (!server.disabled) mcpServers[name] = server.entry;
  // The file of highest precedence names the config (errors, the session holder's key).
  const main = reports.reduce((best, report) => (report.scope === 'local' || (report.scope === 'project' && best.scope === 'user') ? report : best));
  // As for a toolrun config: the checker (Ajv, ~5 ms) runs once per text this build found valid.
  const checkedText = JSON.stringify({ host: option, mcpServers });
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
  config.sourceText = checkedText;
  return config;
}
