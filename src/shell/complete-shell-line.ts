import { ALL_CONTROLS } from '../text/control-characters.js';
import { SHELL_COMMANDS } from './shell-help.js';

/** A held server's tool, as the completer needs it. */
export interface CompletableTool {
  server: string;
  name: string;
  inputSchema?: { properties?: Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }> };
}

/** What the completer knows: the held servers and their tools (refreshed by the shell after a restart). */
export interface CompletionSource {
  servers(): string[];
  tools(): CompletableTool[];
}

// A server's names and enum values: readline shows and inserts a candidate as it is, so one holding a
// control character (ESC, a line break, a bidi override) is not offered.
const CONTROL = new RegExp(`[${ALL_CONTROLS}]`);

/** Commands whose argument is a server name. */
const SERVER_COMMANDS = new Set(['doctor', '.stderr', 'restart']);
/** Commands whose first argument is a tool name, then its arguments. */
const TOOL_COMMANDS = new Set(['time']);

/**
 * readline's completer (Tab): commands and tool names first, then a tool's argument keys from its
 * inputSchema (`key=`), then the enum values after `key=`; server names after doctor, .stderr and
 * restart. Returns [candidates, the part of the line they replace].
 */
export function completeShellLine(line: string, source: CompletionSource): [string[], string] {
  const words = line.split(/\s+/);
  const current = words.pop() ?? '';
  const before = words.filter(Boolean);
  const matching = (candidates: Iterable<string>) => [...new Set(candidates)].filter((candidate) => candidate.startsWith(current) && !CONTROL.test(candidate)).sort();
  if (before.length === 0) {
    const tools = source.tools().flatMap((tool) => [tool.name, `${tool.server}:${tool.name}`]);
    // A qualified name only when typed so far, or the plain name is taken by two servers: the list stays short.
    const shown = tools.filter((name) => !name.includes(':') || current.includes(':') || ambiguous(source, name.split(':').slice(1).join(':')));
    return single(matching([...SHELL_COMMANDS, ...shown]), current);
  }
  const command = before[0]!;
  if (SERVER_COMMANDS.has(command)) return [before.length === 1 ? matching(source.servers()) : [], current];
  if (command === '.json') return [before.length === 1 ? matching(['on', 'off']) : [], current];
  if (command === 'help') return [before.length === 1 ? matching(SHELL_COMMANDS) : [], current];
  if (command === 'skills') return [before.length === 1 ? matching(['list', 'get', 'read', '--verify']) : [], current];
  const toolWord = TOOL_COMMANDS.has(command) ? before[1] : command;
  if (TOOL_COMMANDS.has(command) && before.length === 1) return single(matching(source.tools().map((tool) => tool.name)), current);
  const tool = toolWord ? findTool(source, toolWord) : undefined;
  if (!tool) return [[], current];
  const properties = tool.inputSchema?.properties ?? {};
  const equals = current.indexOf('=');
  if (equals > 0) {
    const key = current.slice(0, equals).replace(/:$/, '');
    const property = properties[key];
    const values = property?.enum ?? property?.items?.enum ?? (property && 'type' in property && property.type === 'boolean' ? [true, false] : []);
    return [matching(values.map((value) => `${current.slice(0, equals + 1)}${typeof value === 'string' ? value : JSON.stringify(value)}`)), current];
  }
  const used = new Set(before.slice(1).map((word) => word.split(/:?=/)[0]));
  return [
    matching(
      Object.keys(properties)
        .filter((key) => !used.has(key))
        .map((key) => `${key}=`),
    ),
    current,
  ];
}

function findTool(source: CompletionSource, word: string): CompletableTool | undefined {
  const colon = word.indexOf(':');
  const tools = source.tools();
  if (colon > 0) {
    const server = word.slice(0, colon);
    const name = word.slice(colon + 1);
    const qualified = tools.find((tool) => tool.server === server && tool.name === name);
    if (qualified) return qualified;
  }
  return tools.find((tool) => tool.name === word);
}

function ambiguous(source: CompletionSource, name: string): boolean {
  return source.tools().filter((tool) => tool.name === name).length > 1;
}

/** One candidate left: completed with a space after it, ready for the next word. */
function single(candidates: string[], current: string): [string[], string] {
  return [candidates.length === 1 ? [`${candidates[0]} `] : candidates, current];
}
