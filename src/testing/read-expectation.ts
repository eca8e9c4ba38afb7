import { isMap, isScalar, type Node as YamlNode, type YAMLMap } from 'yaml';
import { isObject } from '../record/compare-messages.js';
import { checkSchema } from '../schema/compile-schema.js';
import { compileJsonPath } from './json-path.js';
import type { Expectation, FilePlace, ValueMatcher } from './test-file-types.js';

// A step's `expect:` (and the JSONPaths of a file), checked as read-test-file.ts reads it: every
// problem a ConfigError at its place, raised through `fail`.

/** How a reader reports a problem at a place (it throws), and finds a node's place. */
export type Fail = (where: FilePlace, problem: string) => never;
export type PlaceOf = (node: YamlNode | undefined | null) => FilePlace;

const MATCHERS = new Set(['text', 'contains', 'matches', 'json', 'schema', 'path', 'error', 'snapshot', 'latencyMs', 'notifications']);
const VALUE_MATCHERS = new Set(['equals', 'contains', 'matches', 'type', 'length', 'gte', 'lte']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export function jsonPathAt(node: YamlNode, fail: Fail, placeOf: PlaceOf): string {
  const path = node?.toJSON?.() as unknown;
  if (typeof path !== 'string') return fail(placeOf(node), 'a JSONPath is a string starting with $');
  const problem = compileJsonPath(path).problem;
  if (problem) fail(placeOf(node), `JSONPath ${JSON.stringify(path)} does not parse: ${problem}`);
  return path;
}

export function readExpectation(node: YamlNode | undefined, fail: Fail, placeOf: PlaceOf): Expectation {
  if (node === undefined) return {};
  if (!isMap(node)) return fail(placeOf(node), '`expect:` is a mapping of matchers: text, contains, matches, json, schema, path, error, snapshot, latencyMs, notifications');
  const expectation: Record<string, unknown> = {};
  for (const pair of node.items) {
    const keyNode = pair.key as YamlNode;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const valueNode = pair.value as YamlNode;
    const value = valueNode === null ? null : (valueNode.toJSON() as unknown);
    const at = placeOf(valueNode ?? keyNode);
    if (!MATCHERS.has(key)) fail(placeOf(keyNode), `unknown matcher ${JSON.stringify(key)}; matchers are ${[...MATCHERS].join(', ')}`);
    if (key === 'text' && typeof value !== 'string') fail(at, '`text:` is the expected text, a string');
    if (key === 'contains' && !(typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')))) fail(at, '`contains:` is a string or a list of strings');
    if (key === 'matches') checkRegex(value, at, fail);
    if (key === 'schema') {
      if (!isObject(value)) fail(at, '`schema:` is a JSON Schema (a mapping)');
      const problem = checkSchema(value);
      if (problem) fail(at, `\`schema:\` is not a valid JSON Schema: ${problem}`);
    }
    if (key === 'path') {
      if (!isMap(valueNode)) fail(at, '`path:` maps JSONPaths to values or checks: path: { "$.structuredContent.n": { gte: 1 } }');
      for (const entry of (valueNode as YAMLMap).items) {
        jsonPathAt(entry.key as YamlNode, fail, placeOf);
        const expected = (entry.value as YamlNode | null)?.toJSON?.() as unknown;
        if (isValueMatcher(expected)) checkValueMatcher(expected, placeOf(entry.value as YamlNode), fail);
      }
    }
    if (key === 'error') {
      if (!(typeof value === 'boolean' || typeof value === 'string' || isObject(value))) fail(at, '`error:` is true/false, a message it contains, or { code: N, message: … }');
      if (isObject(value)) {
        for (const part of Object.keys(value)) if (part !== 'code' && part !== 'message') fail(at, `\`error:\` takes code and message, not ${JSON.stringify(part)}`);
        if (value.code !== undefined && !Number.isInteger(value.code)) fail(at, '`error.code` is a JSON-RPC error code (an integer)');
        if (isValueMatcher(value.message)) checkValueMatcher(value.message, at, fail);
      }
    }
    if (key === 'snapshot' && typeof value !== 'boolean') fail(at, '`snapshot:` is true or false');
    if (key === 'latencyMs' && !(isObject(value) && typeof value.max === 'number' && value.max > 0 && Object.keys(value).length === 1)) fail(at, '`latencyMs:` is { max: MILLISECONDS }');
    if (key === 'notifications') {
      const progress = isObject(value) ? value.progress : undefined;
      const valid =
        isObject(value) &&
        Object.keys(value).every((name) => name === 'progress') &&
        (typeof progress === 'boolean' ||
          (isObject(progress) && Object.keys(progress).every((name) => name === 'min' || name === 'monotonic') && (progress.min === undefined || Number.isInteger(progress.min))));
      if (!valid) fail(at, '`notifications:` is { progress: true } or { progress: { min: N, monotonic: true } }');
    }
    expectation[key] = value;
  }
  return expectation as Expectation;
}

function checkRegex(value: unknown, at: FilePlace, fail: Fail): void {
  if (typeof value !== 'string') fail(at, '`matches:` is a regular expression, as a string');
  try {
    new RegExp(value as string, 'u');
  } catch (error) {
    fail(at, `\`matches:\` does not parse as a regular expression: ${(error as Error).message}`);
  }
}

export function isValueMatcher(value: unknown): value is ValueMatcher {
  return isObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => VALUE_MATCHERS.has(key));
}

export function checkValueMatcher(matcher: ValueMatcher, at: FilePlace, fail: Fail): void {
  if (matcher.matches !== undefined) checkRegex(matcher.matches, at, fail);
  if (matcher.type !== undefined && !TYPES.has(matcher.type)) fail(at, `\`type:\` is one of ${[...TYPES].join(', ')}`);
  for (const key of ['length', 'gte', 'lte'] as const) if (matcher[key] !== undefined && typeof matcher[key] !== 'number') fail(at, `\`${key}:\` is a number`);
}
