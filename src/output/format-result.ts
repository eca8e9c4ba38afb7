import type { ToolEnvelope } from '../executor/envelope.js';
import { toJson } from './terminal.js';

/**
 * A tool's result for people: text as text, anything else as indented JSON; MCP content items
 * (images, audio, resources) as one short line each: `[image/png, 1.2 kB]`.
 */
export function formatResult(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return 'null';
  if (isContentList(result)) return result.map(formatContentItem).join('\n');
  return toJson(result);
}

interface ContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

function isContentList(value: unknown): value is ContentItem[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'object' && item !== null && CONTENT_TYPES.has((item as ContentItem).type));
}

function formatContentItem(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
    case 'audio':
      return `[${item.mimeType ?? item.type}, ${formatBytes(base64Bytes(item.data ?? ''))}]`;
    case 'resource_link':
      return `[link ${item.uri ?? ''}${item.name ? ` (${item.name})` : ''}]`;
    default: {
      const resource = item.resource ?? {};
      if (resource.text !== undefined) return `[resource ${resource.uri ?? ''}]\n${resource.text}`;
      return `[resource ${resource.uri ?? ''}, ${resource.mimeType ?? 'binary'}, ${formatBytes(base64Bytes(resource.blob ?? ''))}]`;
    }
  }
}

export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The stderr line after a result: `✔ math_eval · builtin · 3.21 ms`. */
export function formatEnvelopeFooter(envelope: ToolEnvelope): string {
  const origin = envelope.server ? `mcp:${envelope.server}` : (envelope.source ?? '');
  return `${envelope.success ? '✔' : '✖'} ${envelope.tool_name} · ${origin} · ${formatMs(envelope.execution_time_ms)}`;
}

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(2)} ms`;
}
