import type { Command } from 'commander';
import { resolveServer } from '../config/resolve-server.js';
import { UsageError } from '../errors.js';
import { serverEnvironment } from '../process/launch-environment.js';
import type { CliContext } from './cli-context.js';
import { loadCliConfig } from './load-cli-config.js';
import { assertServerExists } from './assert-server-exists.js';

/** The stdio server a command runs (tap, replay): a server of the config, or `-- COMMAND [ARGS…]`. */
export interface StdioTarget {
  /** The config's server name, or undefined for a command line. */
  server?: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The config's per-call timeout (a config server), for what the command waits on. */
  timeoutMs?: number;
}

/**
 * `SERVER` (one word, no `--`) is a server of the config, with its command, args, env and cwd;
 * `-- COMMAND [ARGS…]` (or several words) is run as given, in the current folder and environment.
 */
export async function resolveStdioTarget(cli: CliContext, words: string[], command: Command, purpose: string): Promise<StdioTarget> {
  let root = command;
  while (root.parent) root = root.parent;
  const dashed = (root as Command & { rawArgs: string[] }).rawArgs.includes('--');
  if (dashed || words.length > 1) return { command: words[0]!, args: words.slice(1), cwd: cli.cwd, env: cli.env };
  const config = await loadCliConfig(cli);
  assertServerExists(config, words[0]!);
  const spec = resolveServer(config, config.servers[words[0]!]!, cli.env);
  if (spec.transport !== 'stdio') throw new UsageError(`server '${words[0]}' is remote (${spec.url}): ${purpose}`);
  return { server: spec.name, command: spec.command, args: spec.args, cwd: spec.cwd, env: serverEnvironment(spec, cli.env), timeoutMs: config.timeoutMs };
}
