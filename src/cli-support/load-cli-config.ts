import { UsageError } from '../errors.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { validConfigMemo } from '../cache/valid-configs.js';
import type { CliContext } from './cli-context.js';

/** The config as every command reads it: found, loaded, `--protocol` applied. */
export async function loadCliConfig(cli: CliContext): Promise<ToolrunConfig> {
  if (cli.globals.terminalEnv && cli.globals.host === undefined) throw new UsageError("--terminal-env goes with --host: without it, servers already start with your terminal's environment");
  if (cli.globals.host !== undefined) return applyCliFlags(cli, await loadCliHostConfig(cli));
  const config = await loadConfig({
    configPath: cli.globals.config,
    env: cli.env,
    cwd: cli.cwd,
    validConfigs: cli.globals.cache ? validConfigMemo(cli.env, (note) => cli.terminal.verbose(note)) : undefined,
  });
  return applyCliFlags(cli, await resolvePackaged(config, cli.env));
}

/** `--host NAME[:SCOPE]`: the host's servers as the config (SPEC §13); with `--config` too, a usage error. */
export async function loadCliHostConfig(cli: CliContext): Promise<ToolrunConfig> {
  if (cli.globals.config !== undefined) throw new UsageError('--host and --config both name the servers to use; give one of them');
  const { loadHostConfig } = await import('../hosts/host-config.js');
  const config = await loadHostConfig(cli.globals.host!, cli.env, cli.cwd, {
    validConfigs: cli.globals.cache ? validConfigMemo(cli.env, (note) => cli.terminal.verbose(note)) : undefined,
    terminalEnv: cli.globals.terminalEnv,
  });
  for (const note of config.hostNotes ?? []) cli.terminal.warn(note);
  return config;
}

/**
 * `{"bundle": …}` and `{"serverJson": …}` entries made into the launch they compose (SPEC §25). The
 * verify code is loaded only for a config that has one.
 */
export async function resolvePackaged(config: ToolrunConfig, env: NodeJS.ProcessEnv): Promise<ToolrunConfig> {
  if (!Object.values(config.servers).some((entry) => entry.transport === 'stdio' && entry.packaged)) return config;
  await (await import('../verify/packaged-servers.js')).resolvePackagedServers(config, env);
  return config;
}

/** What the command line changes in a loaded config: `--protocol` (validate reads the file its own way, then applies this). */
export function applyCliFlags(cli: CliContext, config: ToolrunConfig): ToolrunConfig {
  if (cli.globals.protocol && cli.globals.protocol !== 'auto') config.protocolFlag = cli.globals.protocol;
  return config;
}
