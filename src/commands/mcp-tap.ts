import type { Command } from 'commander';
import { ExitCode, UsageError } from '../errors.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { resolveStdioTarget } from '../cli-support/stdio-target.js';
import { takeOptionalFile } from '../cli-support/optional-file-option.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

interface TapCommandOptions {
  record?: string;
  guard?: boolean;
  name?: string;
  wrap?: string;
  unwrap?: string;
  force?: boolean;
  lock?: string | true;
}

/** `toolrun mcp tap` (SPEC §11): watch a server inside a real host, live. */
export function registerMcpTapCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('tap')
    .description("a stdio proxy to put in a host's config in place of a server's command: forwards both ways byte for byte, reports polluting stdout lines on stderr, records the session")
    .usage('[options] <server-or-command...>')
    // Optional to commander only so that `--lock SERVER` can give the server back (optional-file-option.ts).
    .argument('[server-or-command...]', "a configured server, or -- COMMAND [ARGS...]; with --wrap/--unwrap, a server of that host's config")
    .option('--record <file>', 'record the session to FILE (the format of check-stdout --save; mcp show reads it)')
    .option('--guard', "drop the server's stdout lines that are not JSON-RPC (each reported), so a polluting server works in a strict host")
    .option('--name <name>', 'the name in messages and the recording (default: the server name or the command)')
    .option('--lock [file]', 'only the tools toolrun.lock (or FILE) pins, as pinned, reach the host: one added or changed since is taken out of tools/list and a call to it refused (JSON-RPC -32602)')
    .option('--wrap <host[:scope]>', "rewrite SERVER's entry in that host's config to run through the tap (a backup beside the file first); with --record/--guard/--name, those too")
    .option('--unwrap <host[:scope]>', "put SERVER's entry back as it was before --wrap, byte for byte")
    .option('--force', '--unwrap: put the entry back even though it was edited since the wrap; --wrap: replace a stale backup')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp tap --record /tmp/fs.rec -- npx -y @modelcontextprotocol/server-filesystem /tmp
  $ toolrun --config home.json mcp tap zwave --guard
  $ toolrun mcp show /tmp/fs.rec

In a host's config (Claude Desktop, Cursor, VS Code), the server's command becomes toolrun's:
  "command": "toolrun",
  "args": ["mcp", "tap", "--record", "/tmp/fs.rec", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
It ends when the host closes stdin, and takes the server (and what it started) with it.

--wrap does that edit for you, in the host's own file and shape (comments and layout kept), with
absolute paths of node and toolrun so the host needs neither on its PATH; --unwrap undoes it:
  $ toolrun mcp tap --wrap claude-desktop filesystem --record /tmp/fs.rec
  $ toolrun mcp tap --wrap cursor:project github
  $ toolrun --host claude-desktop lock && toolrun mcp tap --wrap claude-desktop filesystem --lock
  $ toolrun mcp tap --unwrap claude-desktop filesystem`,
    )
    .action((typedWords: string[], typedOptions: TapCommandOptions, command: Command) =>
      run(async (cli) => {
        const { file: lockFile, word } = takeOptionalFile(typedOptions.lock, cli.cwd, 'toolrun.lock');
        const words = word === undefined ? typedWords : [word, ...typedWords];
        const options = { ...typedOptions, lock: lockFile };
        if (words.length === 0) throw new UsageError("missing required argument 'server-or-command'");
        if (options.wrap !== undefined || options.unwrap !== undefined) return (await import('./support/mcp-tap-wrap.js')).runTapWrap(cli, words, options, rawArgsOf(command).includes('--'));
        if (options.force) throw new UsageError('--force goes with --wrap or --unwrap');
        // `-- COMMAND…` is a command to run; a single word without `--` is a server of the config.
        const resolved = await resolveStdioTarget(cli, words, command, 'mcp tap sits between a host and a stdio server');
        const target = { ...resolved, name: options.name ?? resolved.server ?? nameOfCommand(resolved.command, resolved.args) };
        const [{ runTap }, { RecordingWriter }, { pollutionPattern }, { explainWriteError }] = await Promise.all([
          import('../tap/run-tap.js'),
          import('../record/recording.js'),
          import('../scan/pollution-pattern.js'),
          import('../cli-support/explain-write-error.js'),
        ]);
        // The lock is read before the server starts: a missing or bad one is exit 2 with nothing started.
        const lock = lockFile === undefined ? undefined : await tapLockGate(cli, lockFile, target.name);
        let recording: InstanceType<typeof RecordingWriter> | undefined;
        if (options.record) {
          try {
            recording = new RecordingWriter(options.record, target.name, [target.command, ...target.args].join(' '));
          } catch (error) {
            throw new UsageError(`cannot write --record ${options.record}: ${explainWriteError(error)}`, { cause: error });
          }
          cli.onExit(async () => recording!.close());
        }
        // Each kind of polluting line is reported once (with its first text); repeats are counted.
        const seen = new Map<string, number>();
        const outcome = await runTap({
          ...target,
          guard: options.guard === true,
          recording,
          lock,
          signal: cli.signal,
          host: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
          onSpawnError: (error) => cli.terminal.error(`✖ [tap ${target.name}] ${error.message}`),
          onPollution: (line, kinds, dropped) => {
            const text = line.bytes.toString('utf8');
            const key = `${kinds.join(',')}|${pollutionPattern(text)}`;
            const count = seen.get(key);
            if (count !== undefined) return void seen.set(key, count + 1);
            seen.set(key, 0);
            const what = kinds.length === 0 ? 'a warning' : kinds.join(', ');
            cli.terminal.warn(
              `[tap ${target.name}] stdout line ${line.lineNumber} is not clean JSON-RPC (${what}), ${dropped ? 'dropped (--guard)' : 'forwarded: a strict host fails on it'}: ${JSON.stringify(maskThenCut(text, 200))}`,
            );
          },
        });
        const repeats = [...seen.values()].reduce((sum, count) => sum + count, 0);
        if (repeats > 0) cli.terminal.warn(`[tap ${target.name}] ${repeats} more polluting line${repeats === 1 ? '' : 's'} like those above`);
        if (outcome.spawnFailed) return ExitCode.UNREACHABLE;
        if (cli.signal.aborted) return ExitCode.INTERRUPTED;
        if (!outcome.endedByHost && outcome.serverCode !== 0) {
          cli.terminal.error(`✖ [tap ${target.name}] the server exited by itself (code ${outcome.serverCode})`);
          return ExitCode.FAILURE;
        }
        return ExitCode.OK;
      }),
    );
}

/** `--lock [FILE]`: the lock as a gate for this server's messages; what it holds back is said on stderr, each once. */
async function tapLockGate(cli: CliContext, file: string, server: string) {
  const [{ openLockFilter }, { TapLockGate }] = await Promise.all([import('../lock/enforce.js'), import('../tap/lock-gate.js')]);
  return new TapLockGate(openLockFilter(cli.cwd, file), server, (message) => cli.terminal.warn(`[tap ${server}] ${message}`));
}

/** The command line as typed: commander keeps it on the root command only. */
function rawArgsOf(command: Command): string[] {
  let root = command;
  while (root.parent) root = root.parent;
  return (root as Command & { rawArgs: string[] }).rawArgs;
}

const RUNNERS = new Set(['node', 'npx', 'python', 'python3', 'uv', 'uvx', 'bun', 'bunx', 'deno', 'pnpm', 'run']);

/** `npx -y @scope/server-x /tmp` → `server-x`: the first word that is not a runner or a flag. */
function nameOfCommand(program: string, args: string[]): string {
  const words = [program, ...args].map((word) =>
    word
      .split('/')
      .at(-1)!
      .replace(/\.(m?js|py|ts)$/, ''),
  );
  return words.find((word) => word && !word.startsWith('-') && !RUNNERS.has(word)) ?? words[0]!;
}
