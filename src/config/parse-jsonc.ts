import { scanJsonc, type JsoncToken } from './scan-jsonc.js';

export interface JsoncSyntaxProblem {
  line: number;
  column: number;
  message: string;
  /** false for a readable file toolrun refuses (a forbidden key, too deep), true for broken JSON. */
  syntax: boolean;
}

/** Deeper than any real config (a tool schema nests a few levels); deeper is a mistake or an attack. */
export const MAX_CONFIG_DEPTH = 100;

// Keys that would reach an object's prototype if applied: never config (SPEC §8). As JSON Schema
// property names (under "properties") they are data, and stay plain keys of null-prototype objects.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const PROPERTY_EXPECTED = 'property name expected (keys need double quotes)';
const LITERALS = new Set(['true', 'false', 'null']);

type Container = Record<string, unknown> | unknown[];

/** Keys whose value is a JSON Schema: a tool's `parameters` (and a host or server's input/output schema). */
const SCHEMA_KEYS = new Set(['parameters', 'inputSchema', 'outputSchema']);

/** An open object or array: what it is filled with next, and the key it sits under in its parent. */
interface Frame {
  container: Container;
  parentKey: string | undefined;
  /** Inside a tool's JSON Schema (under `parameters`), where `__proto__` may name a property. */
  inSchema: boolean;
  /** Objects only: the key read, waiting for its value. */
  key?: string;
  /** What may come next: a member (or the end), a `:`, or a `,` (or the end). */
  expect: 'member' | 'colon' | 'separator';
}

class JsoncProblem extends Error {
  constructor(
    readonly offset: number,
    message: string,
    readonly syntax = true,
  ) {
    super(message);
  }
}

/**
 * Parses JSON with comments and trailing commas (VS Code's mcp.json is JSONC). Returns the value or
 * the first problem with its 1-based line and column. Objects have a null prototype, so a key such
 * as `toString` is an ordinary key; `__proto__`, `constructor` and `prototype` are refused as config
 * keys, and so is nesting deeper than MAX_CONFIG_DEPTH.
 *
 * A loop over a token stream with an explicit stack, not recursion: time and memory stay
 * proportional to the text (64 MB of whitespace, a 64 MB string, 64 MB of `[`), where jsonc-parser
 * built whitespace up one character at a time (17 s and 2.2 GB for 60 MB) and kept every error.
 */
export function parseJsonc(text: string): { value: unknown } | { problem: JsoncSyntaxProblem } {
  try {
    return { value: buildValue(text) };
  } catch (error) {
    if (!(error instanceof JsoncProblem)) throw error;
    return { problem: { ...lineAndColumn(text, error.offset), message: error.message, syntax: error.syntax } };
  }
}

function buildValue(text: string): unknown {
  const tokens = scanJsonc(text, (offset, message) => {
    throw new JsoncProblem(offset, message);
  });
  const stack: Frame[] = [];
  let root: unknown;
  let done = false;
  for (let token = tokens.next(); ; token = tokens.next()) {
    const frame = stack.at(-1);
    // A stray word is its own problem wherever it stands, except where a key belongs (`{name: 1}`).
    if (token.kind === 'word' && !LITERALS.has(token.value) && !(frame && !Array.isArray(frame.container) && frame.expect === 'member')) throw new JsoncProblem(token.offset, 'unexpected character');
    if (done) {
      if (token.kind !== 'eof') throw new JsoncProblem(token.offset, 'end of file expected (more than one top-level value)');
      return root;
    }
    // Closing the open container, or a separator, or an object's key and colon.
    if (frame && frame.expect !== 'colon' && (token.kind === '}' || token.kind === ']')) {
      const closes = Array.isArray(frame.container) ? ']' : '}';
      if (token.kind !== closes) throw new JsoncProblem(token.offset, frame.expect === 'separator' ? `'${closes}' expected` : closes === '}' ? PROPERTY_EXPECTED : 'value expected');
      stack.pop();
      if (stack.length === 0) done = true;
      else stack.at(-1)!.expect = 'separator';
      continue;
    }
    if (frame?.expect === 'separator') {
      if (token.kind === ',') frame.expect = 'member';
      else if (token.kind === 'eof') throw new JsoncProblem(token.offset, `'${Array.isArray(frame.container) ? ']' : '}'}' expected`);
      else throw new JsoncProblem(token.offset, "',' expected");
      continue;
    }
    if (frame && !Array.isArray(frame.container)) {
      if (frame.expect === 'member') {
        if (token.kind === 'eof') throw new JsoncProblem(token.offset, "'}' expected");
        if (token.kind !== 'string') throw new JsoncProblem(token.offset, token.kind === ',' ? 'value expected' : PROPERTY_EXPECTED);
        // Only a property name of a tool's schema (data, kept safely): a `properties` key elsewhere
        // (a server named "properties") is config, where the key stays refused.
        if (FORBIDDEN_KEYS.has(token.value) && !(frame.inSchema && frame.parentKey === 'properties')) {
          throw new JsoncProblem(token.offset, `the key "${token.value}" is not allowed (it would change how objects behave, not configure toolrun); rename or remove it`, false);
        }
        frame.key = token.value;
        frame.expect = 'colon';
        continue;
      }
      if (token.kind !== ':') throw new JsoncProblem(token.offset, "':' expected");
      frame.expect = 'member';
      token = tokens.next();
    } else if (frame && token.kind === 'eof') {
      throw new JsoncProblem(token.offset, "']' expected");
    }
    // A value: in an array, after an object's colon, or the root.
    const value = readValue(token);
    if (frame) {
      if (Array.isArray(frame.container)) frame.container.push(value);
      // defineProperty, not assignment: a "__proto__" key (allowed under "properties") stays a key.
      else Object.defineProperty(frame.container, frame.key!, { value, writable: true, enumerable: true, configurable: true });
      frame.expect = 'separator';
    } else {
      root = value;
      done = true;
    }
    if (value !== null && typeof value === 'object') {
      if (stack.length >= MAX_CONFIG_DEPTH) throw new JsoncProblem(token.offset, `nested deeper than ${MAX_CONFIG_DEPTH} levels; a config is never that deep`, false);
      done = false;
      const parentKey = frame && !Array.isArray(frame.container) ? frame.key : undefined;
      stack.push({ container: value as Container, parentKey, inSchema: (frame?.inSchema ?? false) || SCHEMA_KEYS.has(parentKey ?? ''), expect: 'member' });
    }
  }
}

/** The value a token starts: a literal, or a fresh (empty) container the loop fills. */
function readValue(token: JsoncToken): unknown {
  switch (token.kind) {
    case 'string':
      return token.value;
    case 'number':
      return Number(token.value);
    case 'word':
      if (token.value === 'true') return true;
      if (token.value === 'false') return false;
      if (token.value === 'null') return null;
      throw new JsoncProblem(token.offset, 'unexpected character');
    case '{':
      return Object.create(null) as Record<string, unknown>;
    case '[':
      return [];
    default:
      throw new JsoncProblem(token.offset, 'value expected');
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
