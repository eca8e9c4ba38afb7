import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bundleFile } from '../../files/bundle-file.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { WrapOutcome } from '../../hosts/wrap-host-server.js';

export interface TapWrapOptions {
  wrap?: string;
  unwrap?: string;
  force?: boolean;
  record?: string;
  guard?: boolean;
  name?: string;
  lock?: string;
}

/**
 * `mcp tap --wrap HOST[:SCOPE] SERVER` and `--unwrap` (SPEC §13): the host's own entry for SERVER is
 * rewritten to run through the tap, and put back. The server is a word of the host's config, never
 * `-- COMMAND`; the host is named by the option itself, so the global --host/--config make no sense here.
 */
export async function runTapWrap(cli: CliContext, words: string[], options: TapWrapOptions, dashed: boolean): Promise<number> {
  const option = options.wrap !== undefined ? '--wrap' : '--unwrap';
  if (options.wrap !== undefined && options.unwrap !== undefined) throw new UsageError('--wrap and --unwrap go one at a time');
  if (dashed || words.length !== 1) throw new UsageError(`${option} takes one server of the host's config: toolrun mcp tap ${option} HOST[:SCOPE] SERVER`);
  if (cli.globals.host !== undefined || cli.globals.config !== undefined) throw new UsageError(`${option} names the host itself: drop --host / --config`);
  if (options.unwrap !== undefined && (options.record !== undefined || options.guard || options.name !== undefined || options.lock !== undefined))
    throw new UsageError('--record, --guard, --name and --lock go with --wrap: they become part of the command the host runs');
  const [{ parseHostOption }, { wrapHostServer, unwrapHostServer }] = await Promise.all([import('../../hosts/host-config.js'), import('../../hosts/wrap-host-server.js')]);
  const { host, scope } = parseHostOption((options.wrap ?? options.unwrap)!, option);
  const target = { host, scope, server: words[0]!, env: cli.env, cwd: cli.cwd, force: options.force === true };
  const outcome = options.wrap !== undefined ? await wrapHostServer(target, await tapPrefix(cli, target.server, options)) : await unwrapHostServer(target);
  if (outcome.replacedBackup) cli.terminal.warn(`replaced the backup of an earlier wrap at ${outcome.backup} (--force)`);
  if (cli.globals.json) await cli.terminal.resultJson(describe(outcome));
  else await cli.terminal.result(sentence(outcome));
  return ExitCode.OK;
}

/**
 * toolrun's command line up to `--`, with absolute paths: the node running toolrun now and toolrun's
 * own bin/toolrun.js, so the host (with its own PATH, often without toolrun or the right node on
 * it) starts the same toolrun. A relative --record is made absolute too: the host's folder is not ours.
 */
async function tapPrefix(cli: CliContext, server: string, options: TapWrapOptions): Promise<string[]> {
  // bin/toolrun.js, beside dist/ in the package.
  const bin = bundleFile('../bin/toolrun.js');
  if (!existsSync(bin)) throw new UsageError(`cannot find toolrun's bin/toolrun.js (looked at ${bin}); --wrap writes its absolute path into the host's config`);
  const record = options.record === undefined ? undefined : resolve(cli.cwd, options.record);
  if (record !== undefined && !isFolder(dirname(record))) throw new UsageError(`--record ${options.record}: the folder ${dirname(record)} does not exist`);
  const name = options.name ?? server;
  const lock = options.lock === undefined ? undefined : await lockFor(cli, options.lock, name);
  return [process.execPath, bin, 'mcp', 'tap', '--name', name, ...(record ? ['--record', record] : []), ...(options.guard ? ['--guard'] : []), ...(lock ? ['--lock', lock] : [])];
}

/**
 * --wrap --lock FILE: the lock's absolute path (the host starts the tap in a folder of its own), read
 * now so that a missing or bad lock is exit 2 here rather than a host whose server shows no tools; a
 * lock that does not pin the server is said too (the tap would serve none of its tools).
 */
async function lockFor(cli: CliContext, file: string, server: string): Promise<string> {
  const { openLockFilter } = await import('../../lock/enforce.js');
  const filter = openLockFilter(cli.cwd, file);
  if (!filter.pins(server)) cli.terminal.warn(`${file} does not pin '${server}': the host will see none of its tools until you pin it (toolrun --host HOST lock ${server}, then --update to re-pin)`);
  return resolve(cli.cwd, file);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function sentence(outcome: WrapOutcome): string {
  const file = outcome.editedPath === outcome.path ? outcome.path : `${outcome.path} → ${outcome.editedPath}`;
  const restart = `restart ${outcome.host} to pick it up`;
  if (outcome.action === 'wrapped') return `wrapped ${outcome.server} in ${outcome.host} (${file}): backup at ${outcome.backup}; ${restart}`;
  if (outcome.restored === 'file') return `restored ${outcome.server} in ${outcome.host} (${file}): the file is as it was before the wrap; ${restart}`;
  if (outcome.restored === 'entry') return `restored ${outcome.server} in ${outcome.host} (${file}): its entry is as it was, other changes to the file kept; ${restart}`;
  return `restored ${outcome.server} in ${outcome.host} (${file}): its entry is as it was before the wrap, over the edits made to it since (--force); ${restart}`;
}

function describe(outcome: WrapOutcome): Record<string, unknown> {
  return {
    action: outcome.action,
    host: outcome.host,
    scope: outcome.scope,
    server: outcome.server,
    path: outcome.path,
    ...(outcome.editedPath !== outcome.path ? { edited_path: outcome.editedPath } : {}),
    backup: outcome.backup,
    ...(outcome.command ? { command: outcome.command } : {}),
    ...(outcome.restored ? { restored: outcome.restored } : {}),
    ...(outcome.replacedBackup ? { replaced_backup: true } : {}),
  };
}
