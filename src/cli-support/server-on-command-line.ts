import type { Command } from 'commander';
import type { RawServerConfig, ToolrunConfig } from '../config/config-types.js';
import { UsageError } from '../errors.js';
import { splitCommandWords } from '../input/split-words.js';

/**
 * The server `conform`, `doctor`, `snapshot`, `lint` and `check-stdout` check, as the GitHub Action's
 * `server` input gives it: a configured name, an http(s) URL, or `-- COMMAND [ARGS…]` (after `--`,
 * one word holding spaces is split as a shell would: the Action passes its input as one word). A
 * URL or a command becomes an entry of `config` (stdio servers start in the current folder and
 * environment); the name it gets is returned. One word after `--` is a command too
 * (`-- mcp-server-memory`: most official servers are one-word binaries), unless the config has a
 * server of that name (the Action passes a configured name after `--`) or it starts with `-`:
 * `-- --config=evil.json` is an unknown server, never an option nor a program to run.
 */
export function serverOnCommandLine(config: ToolrunConfig, words: string[], dashed: boolean, cwd: string): string | undefined {
  if (words.length === 0) return undefined;
  const [first] = words;
  if (words.length === 1 && /^https?:\/\//i.test(first!)) {
    let url: URL;
    try {
      url = new URL(first!);
    } catch {
      throw new UsageError(`${first}: not a URL`);
    }
    return addEntry(config, { transport: 'auto', name: url.host, url: url.href, headers: {} });
  }
  if (!dashed || (words.length === 1 && (config.servers[first!] || first!.trim().startsWith('-')))) {
    if (words.length > 1) throw new UsageError(`one server at a time: put a command after -- (toolrun … -- ${words.join(' ')})`);
    return first;
  }
  const split = words.length === 1 ? splitCommandWords(first!) : words;
  if (typeof split === 'string') throw new UsageError(`${JSON.stringify(first)}: ${split}`);
  if (split.length === 0) throw new UsageError('an empty command after --');
  return addEntry(config, { transport: 'stdio', name: nameOfCommand(split), command: split[0]!, args: split.slice(1), env: {}, cwd });
}

/** Whether the command line has `--` (commander drops it from the arguments it gives the action). */
export function hasDoubleDash(command: Command): boolean {
  let root = command;
  while (root.parent) root = root.parent;
  return (root as Command & { rawArgs: string[] }).rawArgs.includes('--');
}

/** How many words follow `--` on the command line. */
export function wordsAfterDash(command: Command): number {
  let root = command;
  while (root.parent) root = root.parent;
  const raw = (root as Command & { rawArgs: string[] }).rawArgs;
  return raw.includes('--') ? raw.length - raw.indexOf('--') - 1 : 0;
}

function addEntry(config: ToolrunConfig, entry: RawServerConfig): string {
  // A configured server keeps its name: the command line's one gets another.
  let name = entry.name;
  for (let n = 2; config.servers[name]; n++) name = `${entry.name}-${n}`;
  config.servers[name] = { ...entry, name };
  return name;
}

/** `node server.js` → `server`, `npx -y @scope/pkg` → `pkg`: the word a person would call the server. */
function nameOfCommand(words: string[]): string {
  const runners = new Set(['node', 'npx', 'uvx', 'python', 'python3', 'deno', 'bun', 'pnpm', 'yarn', 'docker', 'run', 'dlx', 'exec']);
  const names = words.map((word) =>
    word
      .split('/')
      .at(-1)!
      .replace(/\.(m?js|py|ts)$/, ''),
  );
  const found = words.findIndex((word, index) => names[index] && !word.startsWith('-') && !runners.has(names[index]!));
  return names[found === -1 ? 0 : found]!;
}
