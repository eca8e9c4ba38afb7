import { tomlParser } from './host-parsers.js';
import { isObject } from './server-entry.js';
import { lineEndingOf, quoteString, WrapRefusal, type EntryPlace } from './entry-command.js';
import { applyTextEdits, indentBefore, type EntryEditor, type TextEdit } from './entry-editor.js';
import { tomlStatements, type TomlStatement } from './toml-statements.js';

/**
 * Codex's config.toml: the entry is its `[mcp_servers.NAME]` table, from the header to its last
 * `key = value` line (a `[mcp_servers.NAME.env]` table after it is a table of its own, untouched).
 * Only the values after `command =` and `args =` are replaced (an `args = […]` line is added after
 * the command when there was none). An entry written another way (an inline table, dotted keys
 * under `[mcp_servers]`) is refused rather than rewritten.
 */
export const tomlEntryEditor: EntryEditor = {
  locate(text, place) {
    const document = parseToml(text);
    const servers = isObject(document) ? document[place.keys[0]!] : undefined;
    const value = isObject(servers) ? servers[place.name] : undefined;
    if (value === undefined) return undefined;
    const table = findTable(text, place);
    if (!isObject(value) || !table)
      throw new WrapRefusal(`'${place.name}' is not written as a [${place.keys[0]}.${place.name}] table of its own (an inline table or dotted keys): toolrun edits only that form; change it by hand`);
    return { start: table.start, end: table.end, path: [place.keys[0]!, place.name], document, value };
  },

  setCommandLine(text, place, words) {
    const table = findTable(text, place);
    if (!table) throw new WrapRefusal(`'${place.name}' is not in the file`);
    const pair = (name: string) => table.pairs.find((statement) => statement.key.length === 1 && statement.key[0] === name);
    const command = pair('command');
    if (!command) throw new WrapRefusal(`'${place.name}' has no command = line in its table`);
    const list = `[${words.slice(1).map(quoteString).join(', ')}]`;
    const edits: TextEdit[] = [{ offset: command.valueStart, length: command.valueEnd - command.valueStart, content: quoteString(words[0]!) }];
    const args = pair('args');
    if (args) edits.push({ offset: args.valueStart, length: args.valueEnd - args.valueStart, content: list });
    else {
      const indent = indentBefore(text, command.start) ?? '';
      edits.push({ offset: command.end, length: 0, content: `${lineEndingOf(text)}${indent}args = ${list}` });
    }
    return applyTextEdits(text, edits);
  },
};

function parseToml(text: string): unknown {
  const { parse } = tomlParser();
  try {
    return parse(text);
  } catch (error) {
    throw new WrapRefusal(`it cannot be read as TOML (${(error as Error).message.split('\n')[0]})`);
  }
}

type Pair = Extract<TomlStatement, { kind: 'pair' }>;

/** The `[keys.NAME]` table: its span (header to last line) and its own `key = value` lines. */
function findTable(text: string, place: EntryPlace): { start: number; end: number; pairs: Pair[] } | undefined {
  const statements = tomlStatements(text);
  if (!statements) throw new WrapRefusal('toolrun cannot follow its TOML syntax well enough to edit it safely');
  const wanted = [...place.keys, place.name];
  const at = statements.findIndex((statement) => statement.kind === 'table' && statement.key.length === wanted.length && statement.key.every((part, index) => part === wanted[index]));
  if (at === -1) return undefined;
  const pairs: Pair[] = [];
  for (const statement of statements.slice(at + 1)) {
    if (statement.kind !== 'pair') break;
    pairs.push(statement);
  }
  return { start: statements[at]!.start, end: (pairs.at(-1) ?? statements[at]!).end, pairs };
}
