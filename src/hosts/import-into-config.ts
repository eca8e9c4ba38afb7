import { parseTree, type Node } from 'jsonc-parser';
import { parseJsonc } from '../config/parse-jsonc.js';
import { ConfigError } from '../errors.js';
import { detectLayout, formatJson } from './jsonc-layout.js';
import { appendMember, findMember, holdsNoValue, replaceValue } from './jsonc-edit.js';
import { isObject } from '../config/build-config.js';

/** A server to write into a toolrun config: its name and its `mcpServers` entry. */
export interface ServerToWrite {
  name: string;
  entry: Record<string, unknown>;
}

export type ConfigTextEdit =
  /** The new text; `replaced`: names whose entry was there and was replaced (only with `force`). */
  | { text: string; replaced: string[] }
  /** Names already in the config, when not `force`: nothing was changed. */
  | { conflicts: string[] };

/**
 * `servers` added to a toolrun config's text (SPEC §13, `hosts import`): each appended to
 * `mcpServers` (created when absent), as a JSONC edit that keeps every comment, the key order, the
 * indentation and the line endings of the rest of the file. A name the config already has (under
 * `mcpServers`, or VS Code's `servers`) is a conflict, and then nothing is written (all or nothing),
 * unless `force`: then that entry is replaced where it stands. `file` names the file in errors.
 */
export function addServersToConfigText(text: string, servers: readonly ServerToWrite[], options: { force: boolean; file: string }): ConfigTextEdit {
  if (holdsNoValue(text)) return { text: newConfigText(text, servers), replaced: [] };
  const parsed = parseJsonc(text);
  if ('problem' in parsed) {
    const { line, column, message, syntax } = parsed.problem;
    throw new ConfigError(`${options.file}:${line}:${column}: ${syntax ? 'invalid JSON: ' : ''}${message}; fix it before importing into it`, { file: options.file });
  }
  const value = parsed.value;
  if (!isObject(value)) throw new ConfigError(`${options.file}: the top level is not an object, so it is not a toolrun config; name another file with --into`, { file: options.file });
  for (const key of ['mcpServers', 'servers']) {
    if (value[key] !== undefined && !isObject(value[key])) throw new ConfigError(`${options.file}: "${key}" is not an object of servers; fix it before importing into it`, { file: options.file });
  }
  const has = (name: string) => ['mcpServers', 'servers'].some((key) => isObject(value[key]) && Object.hasOwn(value[key], name));
  const conflicts = servers.filter((server) => has(server.name)).map((server) => server.name);
  if (conflicts.length > 0 && !options.force) return { conflicts };
  let current = text;
  for (const server of servers) {
    const root = parseTree(current, [], { allowTrailingComma: true })!;
    const layout = detectLayout(current, root);
    const block = findMember(root, 'mcpServers');
    const existing = findMember(block?.children?.[1], server.name) ?? findMember(findMember(root, 'servers')?.children?.[1], server.name);
    if (existing) current = replaceValue(current, existing, server.entry, layout);
    else if (block) current = appendMember(current, block.children![1] as Node, server.name, server.entry, layout);
    else current = appendMember(current, root, 'mcpServers', { [server.name]: server.entry }, layout);
  }
  return { text: current, replaced: conflicts };
}

/**
 * A file that holds no value yet (new, empty, or only comments): `{"mcpServers": {…}}`, after the
 * comments, ending with a line break.
 */
function newConfigText(text: string, servers: readonly ServerToWrite[]): string {
  const layout = detectLayout(text, undefined);
  const mcpServers = Object.fromEntries(servers.map((server) => [server.name, server.entry]));
  const document = `${formatJson({ mcpServers }, layout, '')}${layout.eol}`;
  if (text.trim() === '') return document;
  return `${text}${text.endsWith('\n') ? '' : layout.eol}${document}`;
}
