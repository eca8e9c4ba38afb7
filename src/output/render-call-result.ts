import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes, base64Bytes } from './format-result.js';
import { escapeOneLine } from './escape-controls.js';
import { toJson } from './terminal.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/** How `exec` shows an MCP result to a person (SPEC §10). */
export type CallOutputMode = 'text' | 'structured' | 'raw';

type ContentItem = CallToolResult['content'][number];

/** Where `-o DIR` put one binary item, and what it was. */
export interface SavedItem {
  index: number;
  path: string;
  mimeType: string;
  bytes: number;
  /** Set when the name it would have had was taken: that path, and what was there ('a symbolic link'…). */
  nameTaken?: { path: string; by: string };
}

export interface RenderContext {
  /** The server, for the command that reads a linked resource. */
  server?: string;
  /** Content items already written to files by `-o DIR`, by their index in `content`. */
  saved?: Map<number, SavedItem>;
}

/**
 * The text a person sees for a tool's result. By default the text content (a tool that returns
 * both text and structuredContent prints the text, so `> file` saves the text, not escaped JSON);
 * structuredContent as JSON when there is no content to show; binary items as one line saying
 * what they are and where `-o DIR` put them; resource links with the command that reads them.
 */
export function renderCallResult(result: CallToolResult, mode: CallOutputMode, context: RenderContext = {}): string {
  if (mode === 'raw') return toJson(result);
  if (mode === 'structured') return toJson(result.structuredContent ?? null);
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0) return result.structuredContent !== undefined ? toJson(result.structuredContent) : '';
  return content.map((item, index) => renderItem(item, context.saved?.get(index), context.server)).join('\n');
}

function renderItem(item: ContentItem, saved: SavedItem | undefined, server: string | undefined): string {
  const savedAs = saved ? ` saved to ${saved.path}` : '';
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return `[${escapeOneLine(item.mimeType ?? item.type)}, ${formatBytes(saved?.bytes ?? base64Bytes(item.data ?? ''))}]${savedAs || ' (write it to a file with -o DIR)'}`;
    // toolrun's own lines around the server's words are written as they are even to a file (exec's
    // result is verbatim), so what the server put in them (a name, a URI, a mime type) is escaped here.
    case 'resource_link':
      return `[link ${escapeOneLine(item.uri)}${item.name ? ` (${escapeOneLine(item.name)})` : ''}${item.mimeType ? `, ${escapeOneLine(item.mimeType)}` : ''}] read it: ${toolrunCommand('resources', 'read', item.uri, ...(server ? ['--server', server] : []))}`;
    case 'resource': {
      const resource = item.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      if (resource.text !== undefined) return `[resource ${escapeOneLine(resource.uri)}]\n${resource.text}`;
      return `[resource ${escapeOneLine(resource.uri)}, ${escapeOneLine(resource.mimeType ?? 'binary')}, ${formatBytes(saved?.bytes ?? base64Bytes(resource.blob ?? ''))}]${savedAs || ' (write it to a file with -o DIR)'}`;
    }
    default:
      return toJson(item);
  }
}
