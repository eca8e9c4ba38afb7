import type { HostName, HostScope } from './host-types.js';
import { isObject, type Json } from './server-entry.js';

/**
 * Where one server's entry sits in a host file, and how that host writes its command line: the
 * facts `mcp tap --wrap` needs to edit it in the host's own shape (SPEC §13). The readers in this
 * folder give the same facts for reading.
 */
export interface EntryPlace {
  format: 'json' | 'toml' | 'yaml';
  /** The keys down to the servers: an object by name (JSON, TOML's `mcp_servers`), or Continue's list of `{name, …}` (YAML). */
  keys: string[];
  name: string;
  /**
   * `command-args`: `command` and `args` (most hosts, Codex); `command-array`: opencode's
   * `command: [program, ...args]`; Zed also accepts the older nested `command: {path, args, env}`
   * (told apart by the value itself).
   */
  shape: 'command-args' | 'command-array';
}

/** A refusal of `--wrap` / `--unwrap`: the file is left as it was, and the message says why (exit 2). */
export class WrapRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WrapRefusal';
  }
}

/** The place of `name` in a file of `host` (scope and project folder for Claude Code's ~/.claude.json). */
export function entryPlaceOf(host: HostName, path: string, scope: HostScope, projectDir: string, name: string): EntryPlace {
  const json = (keys: string[], shape: EntryPlace['shape'] = 'command-args'): EntryPlace => ({ format: 'json', keys, name, shape });
  switch (host) {
    case 'claude-code':
      return json(scope === 'local' ? ['projects', projectDir, 'mcpServers'] : ['mcpServers']);
    case 'vscode':
      return json(['servers']);
    case 'zed':
      return json(['context_servers']);
    case 'opencode':
      return json(['mcp'], 'command-array');
    case 'codex':
      return { format: 'toml', keys: ['mcp_servers'], name, shape: 'command-args' };
    case 'continue':
      // A block folder may hold JSON files in Claude Desktop's shape.
      return /\.ya?ml$/i.test(path) ? { format: 'yaml', keys: ['mcpServers'], name, shape: 'command-args' } : json(['mcpServers']);
    default:
      return json(['mcpServers']);
  }
}

/** Keys that make an entry remote, per host (`url`; Windsurf's `serverUrl`; Gemini's `httpUrl`). */
const URL_KEYS = ['url', 'serverUrl', 'httpUrl'];

/** An entry's command line (program first), or why it has none toolrun can wrap. */
export function commandLineOf(entry: Json, place: EntryPlace): string[] {
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
  const remote = URL_KEYS.find((key) => typeof entry[key] === 'string');
  if (place.shape === 'command-array') {
    if (entry.type === 'remote' || (remote && entry.command === undefined))
      throw new WrapRefusal(`'${place.name}' is a remote server (${String(entry[remote ?? 'url'])}): tap is for stdio servers only`);
    if (!strings(entry.command) || (entry.command as string[]).length === 0) throw new WrapRefusal(`'${place.name}' has no command array of strings to wrap`);
    return entry.command as string[];
  }
  if (entry.command === undefined && remote) throw new WrapRefusal(`'${place.name}' is a remote server (${String(entry[remote])}): tap is for stdio servers only`);
  // Zed's older nested form: "command": {"path", "args", "env"}.
  const holder = isObject(entry.command) ? entry.command : entry;
  const program = holder === entry ? entry.command : holder.path;
  if (typeof program !== 'string' || program === '') throw new WrapRefusal(`'${place.name}' has no command (a string) to wrap`);
  if (holder.args !== undefined && !strings(holder.args)) throw new WrapRefusal(`'${place.name}' has args that are not a list of strings: toolrun cannot wrap it`);
  return [program, ...((holder.args as string[] | undefined) ?? [])];
}

/** The entry as it should read once its command line is `words`: the check that an edit did only that. */
export function withCommandLine(entry: Json, place: EntryPlace, words: string[]): Json {
  const copy = (value: Json): Json => Object.assign(Object.create(Object.getPrototypeOf(value) as object | null) as Json, value);
  const result = copy(entry);
  if (place.shape === 'command-array') result.command = words;
  else if (isObject(entry.command)) result.command = Object.assign(copy(entry.command), { path: words[0], args: words.slice(1) });
  else Object.assign(result, { command: words[0], args: words.slice(1) });
  return result;
}

/** A command line that already runs through `toolrun mcp tap` (ours, or put there by hand). */
export function isTapCommandLine(words: readonly string[]): boolean {
  const at = words.findIndex((word, index) => word === 'mcp' && words[index + 1] === 'tap');
  return at > 0 && at <= 2 && words.slice(0, at).some((word) => /(^|[\\/])toolrun(\.js|\.cmd)?$/.test(word));
}

/**
 * A string as a double-quoted literal that JSON, TOML (basic string) and YAML all read back the
 * same: JSON's escapes, plus DEL and the C1 controls, which TOML and YAML want escaped and JSON
 * leaves raw.
 */
export function quoteString(value: string): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\ufffe\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The line ending a file uses (CRLF when it has any), for the lines an edit adds. */
export function lineEndingOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
