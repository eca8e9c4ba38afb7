import { ALL_CONTROLS } from '../text/control-characters.js';
import type { ArgumentNode, CommandNode, OptionNode, WordKind } from './command-tree.js';

/** What the command line says about where candidates come from (SPEC §3, §13). */
export interface LineSettings {
  config?: string;
  /** `--host`, or `mcp tap --wrap/--unwrap HOST`: that host's config is where the servers are. */
  host?: string;
  terminalEnv: boolean;
  /** `--server NAME` of the command: its tools only. */
  server?: string;
}

/** Where server and tool names come from: the config and the tool index, never a started server. */
export interface CandidateSources {
  servers(): Promise<string[]>;
  /** The remote (`url`) servers: what `auth login` takes. */
  remoteServers(): Promise<string[]>;
  /** The tools the index knows for this server; none for a server never indexed. */
  serverTools(server: string): Promise<string[]>;
  localTools(): Promise<string[]>;
  hosts(): string[];
}

export interface Candidate {
  value: string;
  description?: string;
}

/** The candidates for the word being typed, or `files` when it is a path the shell completes itself. */
export type Completion = { files: true } | { files: false; candidates: Candidate[] };

const NOTHING: Completion = { files: false, candidates: [] };

/** Where the command line's options that choose the servers are read from (any command's position). */
const SETTING_OPTIONS = new Set(['--config', '--host', '--terminal-env', '--server', '--wrap', '--unwrap']);

/**
 * The completions of the last word of `words` (the words after `toolrun`, the last one being typed,
 * possibly empty), walking the command table as commander would parse the line: subcommands,
 * options (the command's and the global ones) and their values, then positional arguments.
 * `sources` is asked only when server or tool names are wanted: completing a command or a flag
 * reads no config.
 */
export async function completeWords(words: readonly string[], table: CommandNode, sourcesFor: (settings: LineSettings) => CandidateSources): Promise<Completion> {
  const current = words.at(-1) ?? '';
  const chain: CommandNode[] = [table];
  const positionals: string[] = [];
  const settings: LineSettings = { terminalEnv: false };
  let afterDashDash = false;
  for (let i = 0; i < words.length - 1; i++) {
    const word = words[i]!;
    const node = chain.at(-1)!;
    if (afterDashDash) positionals.push(word);
    else if (word === '--') afterDashDash = true;
    else if (word.startsWith('-') && word !== '-') {
      const equals = word.startsWith('--') ? word.indexOf('=') : -1;
      const name = equals > 0 ? word.slice(0, equals) : word.startsWith('--') ? word : word.slice(0, 2);
      const option = findOption(chain, name);
      if (!option) continue;
      let value: string | undefined = equals > 0 ? word.slice(equals + 1) : !word.startsWith('--') && word.length > 2 ? word.slice(2) : undefined;
      if (option.takesValue && value === undefined) {
        // The option's value is the word being typed.
        if (i + 1 === words.length - 1) return completeValue(option, current, '', settings, sourcesFor);
        value = words[++i];
      }
      if (SETTING_OPTIONS.has(option.long)) readSetting(settings, option.long, value);
    } else if (positionals.length === 0 && node.commands.some((sub) => sub.name === word)) chain.push(node.commands.find((sub) => sub.name === word)!);
    else positionals.push(word);
  }
  const node = chain.at(-1)!;
  if (afterDashDash) return { files: true };
  if (current.startsWith('--') && current.includes('=')) {
    const option = findOption(chain, current.slice(0, current.indexOf('=')));
    if (!option?.takesValue) return NOTHING;
    return completeValue(option, current.slice(current.indexOf('=') + 1), `${option.long}=`, settings, sourcesFor);
  }
  if (current.startsWith('-')) return matching(optionsOf(chain), current);
  if (node.commands.length > 0 && positionals.length === 0)
    return matching(
      node.commands.map((sub) => ({ value: sub.name, description: sub.description })),
      current,
    );
  const argument = node.args[positionals.length] ?? (node.args.at(-1)?.variadic ? node.args.at(-1) : undefined);
  if (!argument) return NOTHING;
  // A list of servers (session start a b …): those not named yet.
  const given = argument.variadic ? positionals.slice(node.args.indexOf(argument)) : [];
  const completion = await completeKind(argument, current, settings, sourcesFor);
  return completion.files ? completion : { files: false, candidates: completion.candidates.filter((candidate) => !given.includes(candidate.value)) };
}

function readSetting(settings: LineSettings, long: string, value: string | undefined): void {
  if (long === '--terminal-env') settings.terminalEnv = true;
  else if (long === '--config') settings.config = value;
  else if (long === '--host' || long === '--wrap' || long === '--unwrap') settings.host = value;
  else settings.server = value;
}

/** The option of this name among the command's and its parents' (the global ones are the root's). */
function findOption(chain: readonly CommandNode[], name: string): OptionNode | undefined {
  for (const node of [...chain].reverse()) {
    const option = node.options.find((candidate) => candidate.long === name || candidate.short === name);
    if (option) return option;
  }
  return undefined;
}

/** The command's own options first, then its parents' (the global ones last), each name once. */
function optionsOf(chain: readonly CommandNode[]): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const node of [...chain].reverse()) {
    for (const option of node.options) {
      if (seen.has(option.long)) continue;
      seen.add(option.long);
      candidates.push({ value: option.long, description: option.description });
    }
  }
  return candidates;
}

async function completeValue(option: OptionNode, typed: string, prefix: string, settings: LineSettings, sourcesFor: (settings: LineSettings) => CandidateSources): Promise<Completion> {
  // `--server=ev` keeps its `--server=` in front of each candidate: it is one word to the shell.
  const completion = await completeKind({ kind: option.kind ?? 'none', values: option.values }, typed, settings, sourcesFor);
  if (completion.files) return prefix ? NOTHING : completion;
  return { files: false, candidates: completion.candidates.map((candidate) => ({ ...candidate, value: prefix + candidate.value })) };
}

async function completeKind(word: Pick<ArgumentNode, 'kind' | 'values'>, typed: string, settings: LineSettings, sourcesFor: (settings: LineSettings) => CandidateSources): Promise<Completion> {
  if (word.values)
    return matching(
      word.values.map((value) => ({ value })),
      typed,
    );
  const kind: WordKind = word.kind;
  if (kind === 'file') return { files: true };
  if (kind === 'none') return NOTHING;
  const sources = sourcesFor(settings);
  if (kind === 'host')
    return matching(
      sources.hosts().map((value) => ({ value, description: 'host' })),
      typed,
    );
  if (kind === 'server' || kind === 'remote-server')
    return matching(
      (await (kind === 'server' ? sources.servers() : sources.remoteServers())).map((value) => ({ value, description: 'server' })),
      typed,
    );
  // A skill (SERVER:SKILL): the servers, each as `SERVER:` (skills are not indexed, so none is offered past the colon).
  if (kind === 'skill')
    return matching(
      (await sources.servers()).map((name) => ({ value: `${name}:`, description: 'server' })),
      typed,
    );
  return matching(await toolCandidates(sources, typed, settings.server), typed);
}

/**
 * Tool names: `SERVER:TOOL` once a colon is typed; else the local tools, every indexed server's
 * tools, and each server as `SERVER:` (the way to its tools, and to a server's tool of a name
 * another server has too); one `--server`'s tools only when the line names one.
 */
async function toolCandidates(sources: CandidateSources, typed: string, server: string | undefined): Promise<Candidate[]> {
  const colon = typed.indexOf(':');
  if (colon > 0) {
    const named = typed.slice(0, colon);
    if (!(await sources.servers()).includes(named)) return [];
    return (await sources.serverTools(named)).map((tool) => ({ value: `${named}:${tool}`, description: `mcp:${named}` }));
  }
  if (server !== undefined) return (await sources.serverTools(server)).map((tool) => ({ value: tool, description: `mcp:${server}` }));
  const candidates: Candidate[] = (await sources.localTools()).map((tool) => ({ value: tool, description: 'local' }));
  for (const name of await sources.servers()) {
    for (const tool of await sources.serverTools(name)) candidates.push({ value: tool, description: `mcp:${name}` });
  }
  for (const name of await sources.servers()) candidates.push({ value: `${name}:`, description: 'server' });
  return candidates;
}

// A name is a config's or a server's text: a line break would end the line the shell reads candidates
// from, and a shell inserts a candidate as it is, so ESC or a bidi override would reach the terminal.
const CONTROL = new RegExp(`[${ALL_CONTROLS}]`);

/** The candidates that start with what is typed, each value once; none holding a control character. */
function matching(candidates: readonly Candidate[], typed: string): Completion {
  const seen = new Set<string>();
  const kept = candidates.filter((candidate) => {
    if (!candidate.value.startsWith(typed) || seen.has(candidate.value) || CONTROL.test(candidate.value)) return false;
    seen.add(candidate.value);
    return true;
  });
  return { files: false, candidates: kept };
}
