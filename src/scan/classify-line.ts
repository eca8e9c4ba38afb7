import { isUtf8 } from 'node:buffer';
import type { FindingKind } from './finding-kinds.js';

export interface LineVerdict {
  /** A JSON-RPC message a strict client would deliver. */
  isMessage: boolean;
  kinds: FindingKind[];
  /** The parsed JSON (after a BOM or a CR is set aside), when the line parsed: a reader of the messages needs no second parse. */
  value?: unknown;
}

const BOM = [0xef, 0xbb, 0xbf];
const CR = 13;

/**
 * Classifies one stdout line (its bytes, without the '\n') the way a strict newline-delimited
 * JSON-RPC client reads it. The common case, a valid message, costs one UTF-8 check, one
 * JSON.parse and a shape check.
 */
export function classifyLine(bytes: Buffer, terminated: boolean, oversize: boolean): LineVerdict {
  const kinds: FindingKind[] = [];
  if (!terminated) kinds.push('unterminated');
  if (oversize) return { isMessage: false, kinds: ['oversize', ...kinds] };
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === CR) {
    kinds.push('crlf');
    end--;
  }
  let start = 0;
  if (end >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]) {
    kinds.push('bom');
    start = 3;
  }
  if (end - start === 0 || isBlank(bytes, start, end)) return { isMessage: false, kinds: ['empty', ...kinds] };
  const body = bytes.subarray(start, end);
  if (!isUtf8(body)) kinds.push('invalid-utf8');
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    kinds.push(classifyUnparsable(text));
    return { isMessage: false, kinds };
  }
  if (!isJsonRpcMessage(value)) {
    kinds.push('not-jsonrpc');
    return { isMessage: false, kinds, value };
  }
  // A BOM or an unterminated line loses even a well-formed message.
  const delivered = !kinds.includes('bom') && terminated;
  return { isMessage: delivered, kinds, value };
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte !== 32 && byte !== 9 && byte !== 13) return false;
  }
  return true;
}

/** JSON-RPC 2.0 as the MCP SDK's JSONRPCMessageSchema accepts it: request, notification, response or error. */
export function isJsonRpcMessage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const hasId = typeof message.id === 'string' || (typeof message.id === 'number' && Number.isInteger(message.id));
  if (typeof message.method === 'string') {
    if ('id' in message && !hasId) return false;
    return message.params === undefined || (typeof message.params === 'object' && message.params !== null);
  }
  if ('result' in message) return hasId && typeof message.result === 'object' && message.result !== null && !Array.isArray(message.result);
  if ('error' in message) {
    const error = message.error as Record<string, unknown> | null;
    return typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string';
  }
  return false;
}

/**
 * Why a line does not parse: text glued to a message (a write() without newline followed by a
 * message), several values on one line, or plain text. Splits the line into top-level JSON values
 * and stray text with a small scanner that respects strings.
 */
function classifyUnparsable(text: string): FindingKind {
  const parts = splitTopLevel(text);
  const values = parts.filter((part) => part.kind === 'value' && parses(part.text));
  const stray = parts.some((part) => part.kind === 'stray' && part.text.trim() !== '');
  if (values.length === 0) return 'not-json';
  if (stray) return values.some((part) => isJsonRpcMessage(JSON.parse(part.text))) ? 'glued' : 'not-json';
  return values.length > 1 ? 'multiple-messages' : 'not-json';
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

interface Part {
  kind: 'value' | 'stray';
  text: string;
}

// Only lines that already failed JSON.parse come here, so this need not be fast; it is linear.
function splitTopLevel(text: string): Part[] {
  const parts: Part[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let segmentStart = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"' && depth > 0) inString = true;
    else if (char === '{' || char === '[') {
      if (depth === 0) {
        if (i > segmentStart) parts.push({ kind: 'stray', text: text.slice(segmentStart, i) });
        segmentStart = i;
      }
      depth++;
    } else if ((char === '}' || char === ']') && depth > 0) {
      depth--;
      if (depth === 0) {
        parts.push({ kind: 'value', text: text.slice(segmentStart, i + 1) });
        segmentStart = i + 1;
      }
    }
  }
  if (segmentStart < text.length) parts.push({ kind: 'stray', text: text.slice(segmentStart) });
  return parts;
}
