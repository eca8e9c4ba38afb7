import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { parseHostJson } from './parse-host-json.js';
import { isObject } from './server-entry.js';
import { lineEndingOf, quoteString, WrapRefusal, type EntryPlace } from './entry-command.js';
import { applyTextEdits, indentBefore, type EntryEditor, type TextEdit } from './entry-editor.js';

/**
 * JSON and JSONC host files (every host but Codex and Continue's YAML): the entry is found in
 * jsonc-parser's syntax tree, and only the text of its command and args values is replaced, so
 * comments, trailing commas, key order and layout stay as they were. jsonc-parser's own `modify`
 * is not used: inserting a property through it reformats the whole enclosing object (the entry's
 * env block too), and without formatting options it writes the values with no spaces at all.
 */
export const jsonEntryEditor: EntryEditor = {
  locate(text, place) {
    const parsed = parseHostJson(text);
    if ('problem' in parsed) throw new WrapRefusal(`it cannot be read as JSON (${parsed.problem})`);
    const node = entryNode(text, place);
    if (!node) return undefined;
    const path = [...place.keys, place.name];
    let value: unknown = parsed.value;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    if (!isObject(value)) throw new WrapRefusal(`'${place.name}' is not an object`);
    return { start: node.offset, end: node.offset + node.length, path, document: parsed.value, value };
  },

  setCommandLine(text, place, words) {
    const entry = entryNode(text, place);
    if (!entry) throw new WrapRefusal(`'${place.name}' is not in the file`);
    const list = (items: string[]) => `[${items.map(quoteString).join(', ')}]`;
    if (place.shape === 'command-array') {
      const command = property(entry, 'command', place.name);
      if (!command) throw new WrapRefusal(`'${place.name}' has no command`);
      return applyTextEdits(text, [{ offset: command.offset, length: command.length, content: list(words) }]);
    }
    // Zed's older nested form keeps the program under command.path and its args beside it.
    const nested = property(entry, 'command', place.name);
    const holder = nested?.type === 'object' ? nested : entry;
    const program = holder === entry ? nested : property(holder, 'path', place.name);
    if (!program) throw new WrapRefusal(`'${place.name}' has no command`);
    const edits: TextEdit[] = [{ offset: program.offset, length: program.length, content: quoteString(words[0]!) }];
    const args = property(holder, 'args', place.name);
    if (args) edits.push({ offset: args.offset, length: args.length, content: list(words.slice(1)) });
    else {
      // A new "args" goes right after the command, on a line of its own when the command has one.
      const key = program.parent!.children![0]!;
      const indent = indentBefore(text, key.offset);
      edits.push({ offset: program.offset + program.length, length: 0, content: `,${indent === undefined ? ' ' : lineEndingOf(text) + indent}"args": ${list(words.slice(1))}` });
    }
    return applyTextEdits(text, edits);
  },
};

/** The entry's object node, or undefined; a duplicated key on the way is refused (hosts differ on which one wins). */
function entryNode(text: string, place: EntryPlace): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) throw new WrapRefusal('jsonc-parser, which toolrun edits it with, cannot read it');
  if (!root) return undefined;
  let node: Node | undefined = root;
  for (const key of [...place.keys, place.name]) {
    node = node.type === 'object' ? property(node, key, place.name) : undefined;
    if (!node) return undefined;
  }
  if (node.type !== 'object') throw new WrapRefusal(`'${place.name}' is not an object`);
  return node;
}

/** The value node of `key` in an object node. */
function property(object: Node, key: string, name: string): Node | undefined {
  const matches = (object.children ?? []).filter((pair) => pair.children?.[0]?.value === key);
  if (matches.length > 1) throw new WrapRefusal(`"${key}" appears ${matches.length} times where '${name}' is defined: toolrun does not guess which one the host uses`);
  return matches[0]?.children?.[1];
}
