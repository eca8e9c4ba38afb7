import type { Document, Node as YamlNode, Pair, YAMLMap } from 'yaml';
import { yamlParser } from './host-parsers.js';
import { lineEndingOf, quoteString, WrapRefusal, type EntryPlace } from './entry-command.js';
import { applyTextEdits, indentBefore, lineEndAfter, type EntryEditor, type TextEdit } from './entry-editor.js';
import type { Json } from './server-entry.js';

/**
 * Continue's YAML (`mcpServers` as a list of `{name, command, args, …}`): the entry is its list
 * item, found by name in the yaml package's Document, whose nodes carry their offsets. The text of
 * the command scalar and of the args sequence is replaced in place (a block list stays a block
 * list at its indentation, a flow list a flow list); stringifying the Document instead would keep
 * comments but redo quoting, indentation and blank lines all over the file.
 */
export const yamlEntryEditor: EntryEditor = {
  locate(text, place) {
    const found = findItem(text, place);
    if (!found) return undefined;
    const document = found.doc.toJS({ maxAliasCount: 1000 }) as Json;
    const value = (document[place.keys[0]!] as Json[])[found.index]!;
    return { start: found.item.range![0], end: found.item.range![1], path: [place.keys[0]!, found.index], document, value };
  },

  setCommandLine(text, place, words) {
    const yaml = yamlParser();
    const found = findItem(text, place);
    if (!found) throw new WrapRefusal(`'${place.name}' is not in the file`);
    const pairOf = (key: string) => found.item.items.find((pair) => yaml.isScalar(pair.key) && pair.key.value === key) as Pair<YamlNode, YamlNode> | undefined;
    const command = pairOf('command');
    if (!command || !yaml.isScalar(command.value) || !['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'].includes(command.value.type ?? '') || !command.value.range)
      throw new WrapRefusal(`'${place.name}' has no one-line command scalar toolrun can replace`);
    const edits: TextEdit[] = [{ offset: command.value.range[0], length: command.value.range[1] - command.value.range[0], content: quoteString(words[0]!) }];
    const rest = words.slice(1).map(quoteString);
    const args = pairOf('args');
    if (args) {
      const list = args.value;
      if (!yaml.isSeq(list) || !list.range) throw new WrapRefusal(`'${place.name}' has args that are not a list`);
      const last = list.items.at(-1) as YamlNode | undefined;
      const indent = indentBefore(text, list.range[0]);
      if (list.flow || !last?.range) edits.push({ offset: list.range[0], length: list.range[1] - list.range[0], content: `[${rest.join(', ')}]` });
      else if (indent === undefined) throw new WrapRefusal(`'${place.name}' has an args list laid out in a way toolrun does not edit`);
      // Up to the end of the last item's value: a comment after it stays where it was.
      else edits.push({ offset: list.range[0], length: last.range[1] - list.range[0], content: `- ${rest.join(`${lineEndingOf(text)}${indent}- `)}` });
    } else {
      if (found.item.flow) throw new WrapRefusal(`'${place.name}' is a flow mapping ({…}) without args: toolrun does not add a key to it`);
      const key = command.key!.range![0];
      // The key's column: after `- ` when the command is the item's first key.
      const column = key - (text.lastIndexOf('\n', key - 1) + 1);
      edits.push({ offset: lineEndAfter(text, command.value.range[1]), length: 0, content: `${lineEndingOf(text)}${' '.repeat(column)}args: [${rest.join(', ')}]` });
    }
    return applyTextEdits(text, edits);
  },
};

/** The list item named `place.name` under `place.keys[0]`; more than one of that name is refused. */
function findItem(text: string, place: EntryPlace): { doc: Document; item: YAMLMap; index: number } | undefined {
  const yaml = yamlParser();
  const doc = yaml.parseDocument(text);
  if (doc.errors.length > 0) throw new WrapRefusal(`it cannot be read as YAML (${doc.errors[0]!.message.split('\n')[0]})`);
  const list = doc.get(place.keys[0]!, true);
  if (!yaml.isSeq(list)) return undefined;
  const indexes = list.items.flatMap((item, index) => (yaml.isMap(item) && item.get('name') === place.name ? [index] : []));
  if (indexes.length > 1) throw new WrapRefusal(`${indexes.length} entries are named '${place.name}': toolrun does not guess which one the host uses`);
  if (indexes.length === 0) return undefined;
  const item = list.items[indexes[0]!] as YAMLMap;
  if (!item.range) return undefined;
  return { doc, item, index: indexes[0]! };
}
