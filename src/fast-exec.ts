import { readdirSync } from 'node:fs';
import { BUILTIN_TOOL_NAMES } from './cli-support/is-local-tool.js';
import { MAX_TIMER_MS } from './config/max-timer-ms.js';
import type { FastExecArgs } from './session/fast-warm-exec.js';
import { sessionDirectoryPath } from './session/session-paths.js';

/**
 * `toolrun exec` through a warm session holder, before the CLI is loaded (SPEC §12: a warm call at
 * local-tool speed). Loading commander and every command costs more than the whole warm call, so
 * the common forms of exec are recognised here — and only those: anything else (another command,
 * --args, -o, --help, an option this parser does not know, a word that starts with "-") returns
 * undefined and the full CLI runs, as it also does when there is no holder to use or it cannot
 * answer for the tool. Nothing is printed on the way out: the full CLI reports what it finds.
 */

const FLAGS: Record<string, (args: FastExecArgs) => void> = {
  '--json': (args) => (args.json = true),
  '-v': (args) => (args.verbose = true),
  '--verbose': (args) => (args.verbose = true),
  '-q': (args) => (args.quiet = true),
  '--quiet': (args) => (args.quiet = true),
  '--no-color': (args) => (args.color = false),
  '--raw': (args) => (args.raw = true),
  '--structured': (args) => (args.structured = true),
  '--no-validate': (args) => (args.validate = false),
};
const VALUED = new Set(['-c', '--config', '--timeout', '--server']);

/** The exec forms the warm path takes; undefined for anything else. */
export function parseFastExec(words: string[]): FastExecArgs | undefined {
  const args: FastExecArgs = { json: false, verbose: false, quiet: false, color: true, tool: '', words: [], raw: false, structured: false, validate: true };
  let sawExec = false;
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    let value: string | undefined;
    if (word.startsWith('--') && word.includes('=')) [word, value] = [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)];
    if (FLAGS[word] && value === undefined) FLAGS[word](args);
    else if (VALUED.has(word)) {
      value ??= words[++i];
      if (value === undefined) return undefined;
      if (word === '--timeout') {
        if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_TIMER_MS) return undefined;
        args.timeout = Number(value);
      } else if (word === '--server') {
        if (!sawExec) return undefined;
        args.server = value;
      } else args.config = value;
    } else if (word.startsWith('-')) return undefined;
    else if (!sawExec) {
      if (word !== 'exec') return undefined;
      sawExec = true;
    } else if (!args.tool) args.tool = word;
    else args.words.push(word);
  }
  if (!sawExec || !args.tool || (args.raw && args.structured)) return undefined;
  return args;
}

/**
 * `toolrun hosts` is also answered before the CLI is loaded (fast-hosts.ts), in its plain forms
 * only: `hosts` with `--json` and `--no-color` in any order. Anything else (`hosts import`,
 * `--help`, `--host`, another option) runs the full CLI.
 */
export function parseFastHosts(words: readonly string[]): { json: boolean; noColor: boolean } | undefined {
  if (!words.includes('hosts')) return undefined;
  if (!words.every((word) => word === 'hosts' || word === '--json' || word === '--no-color')) return undefined;
  if (words.filter((word) => word === 'hosts').length !== 1) return undefined;
  return { json: words.includes('--json'), noColor: words.includes('--no-color') };
}

/**
 * Runs a warm exec when it can and exits with its code (once stdout is flushed); returns false when
 * the full CLI must run. bin/toolrun.js calls it before it loads the CLI.
 */
export async function tryFastExec(argv: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const code = await fastExec(argv, env);
  if (code === undefined) return false;
  process.exitCode = code;
  if (process.stdout.writableLength === 0) process.exit(code);
  const exit = () => process.exit(code);
  process.stdout.once('drain', exit).once('close', exit).once('error', exit);
  return true;
}

/**
 * `mcp mock SOURCE` over stdio, with `--match`, `--fault` (one value each) and `--seed`, in any
 * order after SOURCE or before it: the forms fast-mock.ts serves. Anything else (--http, --help, a
 * global option, an unknown flag) is the full CLI's.
 */
export function parseFastMock(words: readonly string[]): import('./fast-mock.js').FastMockArgs | undefined {
  if (words[0] !== 'mcp' || words[1] !== 'mock') return undefined;
  const args: { source?: string; match: 'args' | 'ordered'; faults: string[]; seed?: string } = { match: 'args', faults: [] };
  for (let i = 2; i < words.length; i++) {
    let word = words[i]!;
    let value: string | undefined;
    if (word.startsWith('--') && word.includes('=')) [word, value] = [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)];
    if (word === '--match' || word === '--fault' || word === '--seed') {
      value ??= words[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
      if (word === '--match') {
        if (value !== 'args' && value !== 'ordered') return undefined;
        args.match = value;
      } else if (word === '--fault') args.faults.push(value);
      else args.seed = value;
    } else if (word.startsWith('-') || args.source !== undefined || value !== undefined) return undefined;
    else args.source = word;
  }
  return args.source === undefined ? undefined : { ...args, source: args.source };
}

async function fastExec(argv: string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const mock = parseFastMock(argv.slice(2));
  if (mock) {
    const { runFastMock } = loadBeside('./fast-mock.js') as typeof import('./fast-mock.js');
    const code = await runFastMock(mock);
    if (code !== undefined) return code;
  }
  if (argv[2] === '__complete') {
    // Shell completion's hidden entry (fast-complete.ts), one CommonJS file like fast-hosts: never the CLI.
    const { runFastComplete } = loadBeside('./fast-complete.js') as typeof import('./fast-complete.js');
    return runFastComplete(argv.slice(3), env);
  }
  const hosts = parseFastHosts(argv.slice(2));
  if (hosts) {
    const { runFastHosts } = loadBeside('./fast-hosts.js') as typeof import('./fast-hosts.js');
    return runFastHosts(hosts, env);
  }
  const args = parseFastExec(argv.slice(2));
  if (!args) return undefined;
  // A trace to continue or spans to export: the full CLI reads, checks and hands them to the holder (SPEC §23).
  if (env.TRACEPARENT || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  // A builtin runs here; no holder running at all (no socket): nothing to look for, nothing loaded.
  if (!args.tool.includes(':') && !args.server && (BUILTIN_TOOL_NAMES as readonly string[]).includes(args.tool)) return undefined;
  if (!anyHolderSocket(sessionDirectoryPath(env))) return undefined;
  const { runFastWarmExec } = loadBeside('./fast-warm-exec.js') as typeof import('./session/fast-warm-exec.js');
  return runFastWarmExec(args, env);
}

function anyHolderSocket(dir: string): boolean {
  try {
    return readdirSync(dir).some((file) => file.endsWith('.sock'));
  } catch {
    return false;
  }
}

/**
 * `./NAME.js`: a fast path built as one CommonJS file beside this one (dist/NAME.cjs, scripts/build.js),
 * not bundled here. Loaded with its V8 code cache (NAME.cjs.v8) by load-chunk.cjs, as the CLI's chunks
 * are: compiled by Node's require, fast-warm-exec.cjs alone was ~2.7 ms of a 40 ms warm exec.
 */
function loadBeside(specifier: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- this file is built as CommonJS, and the loader stays a file of its own
  return (require('./load-chunk.cjs') as typeof import('./load-chunk.js')).loadChunk(specifier);
}
