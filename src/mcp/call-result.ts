import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The `result` of an MCP tool in `exec --json` (documented in docs/commands.md, "Tool results"; stable per tool):
 * structuredContent when the server gives it; else the text, when every content item is text
 * (items joined by newlines); else the content items themselves (images, audio, resources).
 */
export function simplifyCallResult(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content ?? [];
  if (content.every((item) => item.type === 'text')) return content.map((item) => (item as { text: string }).text).join('\n');
  return content;
}

/** An MCP tools/call result (as MCP tools give it to `exec`), not a local tool's value. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}
