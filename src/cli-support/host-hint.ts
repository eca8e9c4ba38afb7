import type { CliContext } from './cli-context.js';
import { UnknownServerError, UsageError } from '../errors.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/**
 * An unknown server name that a host's config has: the error names the host(s) and the exact command
 * with `--host` (SPEC §13, exit 2). Host files are read only here, on this error path, never on the
 * normal one. Any other error is given back as it is.
 */
export async function withHostHint(cli: CliContext, error: unknown): Promise<unknown> {
  if (!(error instanceof UnknownServerError) || cli.globals.host !== undefined) return error;
  const { hostsHavingServer } = await import('../hosts/host-config.js');
  const hosts = await hostsHavingServer(error.serverName, cli.env, cli.cwd);
  if (hosts.length === 0) return error;
  const words = (cli.argv ?? process.argv).slice(2);
  // The same command, its --config left out (the two cannot go together).
  const kept = words.filter((word, index) => !/^(?:-c|--config)(?:=.*)?$/.test(word) && !/^(?:-c|--config)$/.test(words[index - 1] ?? ''));
  const commands = hosts.map((host) => toolrunCommand('--host', host, ...kept));
  const which = hosts.length === 1 ? `${hosts[0]}'s config has it` : `the configs of ${hosts.join(', ')} have it`;
  return new UsageError(`${error.message}; ${which}: ${commands.join('  or  ')}`);
}
