import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ExitCode, ToolrunError, UsageError } from '../errors.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { SECTIONS, type ApiSource } from '../snapshot/snapshot-types.js';
import { snapshotServers } from './mcp-snapshot.js';

/** `toolrun mcp diff A B` (SPEC §16): what changed from A's API to B's, each change breaking or not. */
export function registerMcpDiffCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('diff')
    .description('compare two APIs (configured servers, snapshot files or recordings): added, removed and changed tools, resources, templates and prompts, each change marked breaking or not')
    .argument('<a>', 'the API before: a snapshot file (mcp snapshot), a recording (check-stdout --save, tap --record) or a configured server')
    .argument('<b>', 'the API after: the same kinds')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp snapshot zwave > api.json
  $ toolrun --config home.json mcp diff api.json zwave            # the committed API against the server now
  $ toolrun mcp diff api-1.2.json api-1.3.json --json
  $ toolrun --config home.json mcp diff zwave.rec zwave           # a recorded session's API against the server

An argument that names an existing file is read as a snapshot or a recording (by its first line);
otherwise it is a configured server. The classification rules are in docs/conform-and-diff.md ("API snapshots and breaking changes").
Exit codes: 0 no breaking change · 1 a breaking change · 2 bad argument or file · 3 config · 4 unreachable`,
    )
    .action((a: string, b: string) => run((cli) => diffCommand(cli, a, b)));
}

async function diffCommand(cli: CliContext, a: string, b: string): Promise<number> {
  const [{ diffApis }, { formatApiDiff }] = await Promise.all([import('../snapshot/diff-api.js'), import('../output/format-api-diff.js')]);
  const [before, after] = await readSources(cli, [a, b]);
  const diff = diffApis(before!, after!);
  for (const side of new Set(diff.notCompared.map((entry) => entry.missingFrom))) {
    const lists = diff.notCompared.filter((entry) => entry.missingFrom === side).map((entry) => entry.list);
    const methods = lists.map((list) => SECTIONS.find((section) => section.list === list)!.method);
    cli.terminal.warn(`${lists.join(', ')} not compared: ${side} holds no answer to ${methods.join(', ')} (a recording holds only what its session asked for)`);
  }
  const lint = await lintChanges(cli, before!, after!);
  if (cli.globals.json) {
    await cli.terminal.resultJson(
      { breaking: diff.breaking, changes: diff.changes, ...(diff.notCompared.length > 0 ? { notCompared: diff.notCompared } : {}), ...(lint ? { lint } : {}) },
      { verbatimKeys: ['changes'] },
    );
  } else await cli.terminal.result(formatApiDiff(diff, { before: before!.label, after: after!.label }, cli.terminal.outStyle, lint), { verbatim: true });
  return diff.breaking ? ExitCode.FAILURE : ExitCode.OK;
}

/** The token and lint delta of the tools (SPEC §19), when both sides list them. */
async function lintChanges(cli: CliContext, before: ApiSource, after: ApiSource) {
  if (!before.snapshot.tools || !after.snapshot.tools) return undefined;
  const [{ lintDelta }, { tokenCounter }, { cacheDirectory, trustedCacheFolder }] = await Promise.all([
    import('../lint/lint-delta.js'),
    import('../lint/token-counter.js'),
    import('../cache/cache-directory.js'),
  ]);
  const folder = cli.globals.cache ? trustedCacheFolder(cacheDirectory(cli.env), { create: true, note: (note) => cli.terminal.verbose(note) }) : undefined;
  return lintDelta(after.snapshot.server.name, before.snapshot.tools, after.snapshot.tools, tokenCounter(folder));
}

/** Each argument as an API: files first (so no config is needed to compare two files), then the servers, connected together. */
async function readSources(cli: CliContext, args: string[]): Promise<ApiSource[]> {
  const { readApiFile } = await import('../snapshot/read-api-file.js');
  const sources: Array<ApiSource | undefined> = [];
  const servers: Array<{ index: number; name: string }> = [];
  for (const [index, arg] of args.entries()) {
    const path = resolve(cli.cwd, arg);
    if (existsSync(path)) sources[index] = await readApiFile(path, arg).catch((error: unknown) => describeFileError(arg, error));
    else if (looksLikeFile(arg)) throw new UsageError(`${arg}: no such file; give a snapshot file, a recording or a configured server name`);
    else servers.push({ index, name: arg });
  }
  if (servers.length > 0) {
    const names = [...new Set(servers.map((server) => server.name))];
    const snapshots = await snapshotServers(cli, names);
    for (const { index, name } of servers) sources[index] = { label: `server '${name}'`, snapshot: snapshots[names.indexOf(name)]! };
  }
  return sources as ApiSource[];
}

/** A name with a path separator or a file extension is meant as a file, not a server: a missing one is said so. */
function looksLikeFile(arg: string): boolean {
  return /[/\\]/.test(arg) || /\.(json|rec|jsonl|ndjson|txt)$/i.test(arg);
}

function describeFileError(file: string, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') throw new UsageError(`${file} is a folder, not a snapshot or a recording`);
  if (code === 'EACCES') throw new UsageError(`${file}: not readable (permission denied)`);
  if (error instanceof ToolrunError && error.kind === 'usage') throw new UsageError(`${file}: ${error.message}`);
  throw error;
}
