import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

/** A plain text as the model's reply: what --sampling-reply, a text in --sampling FILE and a command's plain stdout stand for. */
export function textResult(text: string, model: string): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'tool_use', 'tool_result']);

/**
 * A JSON value given as a whole CreateMessageResult (`{role, content, model?, stopReason?}`),
 * checked enough that a server never gets a reply toolrun would not send itself: a role, content
 * blocks with a known type (a text block with its text). A missing `model` is `fallbackModel`
 * (the spec requires one), a missing `stopReason` is "endTurn". Returns the problem as one
 * sentence otherwise, for the caller to place (a file's reply N, a command's output).
 */
export function resultFromJson(value: Record<string, unknown>, fallbackModel: string): CreateMessageResult | string {
  if (value.content === undefined) return 'needs "content" (an object such as {"type": "text", "text": "…"})';
  if (value.role !== 'assistant' && value.role !== 'user') return '"role" must be "assistant" or "user"';
  const blocks = Array.isArray(value.content) ? value.content : [value.content];
  for (const block of blocks) {
    const type = (block as { type?: unknown } | null)?.type;
    if (typeof block !== 'object' || block === null || typeof type !== 'string' || !CONTENT_TYPES.has(type)) return `"content" must be content blocks with a type (${[...CONTENT_TYPES].join(', ')})`;
    if (type === 'text' && typeof (block as { text?: unknown }).text !== 'string') return 'a text content block needs "text", a string';
  }
  if (value.model !== undefined && typeof value.model !== 'string') return '"model" must be a string';
  if (value.stopReason !== undefined && typeof value.stopReason !== 'string') return '"stopReason" must be a string';
  return { ...value, model: (value.model as string | undefined) ?? fallbackModel, stopReason: (value.stopReason as string | undefined) ?? 'endTurn' } as CreateMessageResult;
}

/** How a JSON value is named in an error: "a number", "an object"… */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
