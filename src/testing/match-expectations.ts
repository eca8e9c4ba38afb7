import { isObject } from '../record/compare-messages.js';
import { isDeepStrictEqual } from 'node:util';
import { compileArgsValidator } from '../schema/compile-schema.js';
import { formatValidationErrors } from '../schema/format-validation-errors.js';
import { boundedRegexTest, REGEX_TIME_LIMIT_MS, RegexTimeoutError } from '../text/bounded-regex.js';
import { selectNodes } from './json-path.js';
import { isValueMatcher } from './read-expectation.js';
import type { Expectation, ValueMatcher } from './test-file-types.js';

/** What one step did, as the matchers see it. */
export interface StepOutcome {
  /**
   * The document `path`, `save` and snapshots read: an MCP tool's CallToolResult, a local tool's
   * value, `read`'s ReadResourceResult, `get`'s GetPromptResult, `list`'s list. Absent when the
   * step failed before a result (a JSON-RPC error, refused arguments, a crash).
   */
  result?: unknown;
  /** The step failed: an isError result, a JSON-RPC error (with its code), refused arguments, a timeout, a crash. */
  error?: { message: string; code?: number };
  latencyMs: number;
  /** The `progress` value of each notifications/progress the call got, in order. */
  progress: number[];
}

/** One expectation that did not hold: where (the matcher, and the JSONPath for `path`), what was expected, what came. */
export interface MatchFailure {
  matcher: string;
  path?: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

/**
 * Checks `expectation` against the outcome; returns what failed (empty: it passed). A step that
 * errs fails unless `error:` expects it; `snapshot` is the caller's (it owns the files).
 */
/** `regexLimitMs`: how long one `matches:` may run (the step's `timeout` when shorter than the 1 s limit). */
export function matchExpectations(expectation: Expectation, outcome: StepOutcome, regexLimitMs = REGEX_TIME_LIMIT_MS): MatchFailure[] {
  const failures: MatchFailure[] = [];
  const fail = (matcher: string, expected: unknown, actual: unknown, message: string, path?: string) => failures.push({ matcher, ...(path ? { path } : {}), expected, actual, message });
  if (expectation.error === undefined || expectation.error === false) {
    if (outcome.error) {
      fail('error', 'no error', outcome.error.message, `the step failed: ${outcome.error.message}`);
      return failures;
    }
  } else {
    if (!outcome.error) fail('error', expectation.error, outcome.result, 'expected an error; the step succeeded');
    else if (typeof expectation.error === 'string' && !outcome.error.message.includes(expectation.error))
      fail('error', expectation.error, outcome.error.message, `the error does not contain ${JSON.stringify(expectation.error)}`);
    else if (typeof expectation.error === 'object') {
      if (expectation.error.code !== undefined && outcome.error.code !== expectation.error.code)
        fail('error.code', expectation.error.code, outcome.error.code ?? null, `expected JSON-RPC error ${expectation.error.code}, got ${outcome.error.code ?? 'no code (not a JSON-RPC error)'}`);
      if (expectation.error.message !== undefined) {
        const problem = checkValue(toMatcher(expectation.error.message, 'contains'), outcome.error.message);
        if (problem) fail('error.message', expectation.error.message, outcome.error.message, problem);
      }
    }
  }
  const text = () => textOf(outcome.result);
  if (expectation.text !== undefined && text() !== expectation.text) fail('text', expectation.text, text(), 'the text differs');
  if (expectation.contains !== undefined) {
    for (const part of [expectation.contains].flat()) if (!text().includes(part)) fail('contains', part, text(), `the text does not contain ${JSON.stringify(part)}`);
  }
  if (expectation.matches !== undefined) {
    const problem = regexProblem(expectation.matches, text(), regexLimitMs);
    if (problem) fail('matches', expectation.matches, text(), problem === true ? `the text does not match /${expectation.matches}/` : problem);
  }
  if (expectation.json !== undefined || expectation.schema !== undefined) {
    const data = jsonOf(outcome.result);
    if (data.problem) fail(expectation.json !== undefined ? 'json' : 'schema', expectation.json ?? expectation.schema, text(), data.problem);
    else {
      if (expectation.json !== undefined && !isDeepStrictEqual(data.value, expectation.json)) fail('json', expectation.json, data.value, 'the JSON differs');
      if (expectation.schema !== undefined) {
        try {
          const outcomeOfSchema = compileArgsValidator(expectation.schema)(data.value);
          if (!outcomeOfSchema.valid) fail('schema', expectation.schema, data.value, `not valid against the schema: ${formatValidationErrors(outcomeOfSchema.errors)}`);
        } catch (error) {
          // A `pattern` that backtracks past the time limit (src/text/bounded-regex.ts) fails the check, not the run.
          if (!(error instanceof RegexTimeoutError)) throw error;
          fail('schema', expectation.schema, data.value, error.message);
        }
      }
    }
  }
  for (const [path, expected] of Object.entries(expectation.path ?? {})) {
    const nodes = selectNodes(path, outcome.result ?? null);
    if (nodes.length === 0) {
      fail('path', expected, undefined, `${path} selects nothing in the result`, path);
      continue;
    }
    const actual = nodes.length === 1 ? nodes[0]!.value : nodes.map((node) => node.value);
    const problem = checkValue(toMatcher(expected, 'equals'), actual, regexLimitMs);
    if (problem) fail('path', expected, actual, problem, path);
  }
  if (expectation.latencyMs && outcome.latencyMs > expectation.latencyMs.max)
    fail('latencyMs', `≤ ${expectation.latencyMs.max} ms`, `${Math.round(outcome.latencyMs)} ms`, `took ${Math.round(outcome.latencyMs)} ms, over ${expectation.latencyMs.max} ms`);
  const progress = expectation.notifications?.progress;
  if (progress) {
    const min = typeof progress === 'object' ? (progress.min ?? 1) : 1;
    if (outcome.progress.length < min)
      fail('notifications.progress', `≥ ${min} progress notifications`, outcome.progress.length, `got ${outcome.progress.length} progress notifications, expected at least ${min}`);
    if (typeof progress === 'object' && progress.monotonic) {
      const back = outcome.progress.findIndex((value, index) => index > 0 && value <= outcome.progress[index - 1]!);
      if (back > 0) fail('notifications.progress', 'increasing progress', outcome.progress, `progress went from ${outcome.progress[back - 1]} to ${outcome.progress[back]} (notification ${back + 1})`);
    }
  }
  return failures;
}

/**
 * Does `text` fail to match the file's regex: true, or why it could not be told (the regex ran over
 * its time limit), else undefined. The file may be a pull request's: its regex runs bounded.
 */
function regexProblem(pattern: string, text: string, limitMs: number): true | string | undefined {
  try {
    return boundedRegexTest(pattern, 'u', text, limitMs) ? undefined : true;
  } catch (error) {
    if (error instanceof RegexTimeoutError) return error.message;
    throw error;
  }
}

/** A literal is `equals` (or `contains`, for an error message); an object of checks is itself. */
export function toMatcher(expected: unknown, literal: 'equals' | 'contains'): ValueMatcher {
  return isValueMatcher(expected) ? expected : { [literal]: expected };
}

/** Why `actual` fails the checks, or undefined. */
export function checkValue(matcher: ValueMatcher, actual: unknown, regexLimitMs = REGEX_TIME_LIMIT_MS): string | undefined {
  if (matcher.equals !== undefined && !isDeepStrictEqual(actual, matcher.equals)) return `expected ${show(matcher.equals)}, got ${show(actual)}`;
  if (matcher.contains !== undefined) {
    const has =
      typeof actual === 'string'
        ? typeof matcher.contains === 'string' && actual.includes(matcher.contains)
        : Array.isArray(actual) && actual.some((item) => isDeepStrictEqual(item, matcher.contains));
    if (!has) return `${show(actual)} does not contain ${show(matcher.contains)}`;
  }
  if (matcher.matches !== undefined) {
    const problem = typeof actual === 'string' ? regexProblem(matcher.matches, actual, regexLimitMs) : true;
    if (problem) return problem === true ? `${show(actual)} does not match /${matcher.matches}/` : problem;
  }
  if (matcher.type !== undefined && typeName(actual) !== matcher.type && !(matcher.type === 'number' && typeName(actual) === 'integer'))
    return `expected a${/^[aeiou]/.test(matcher.type) ? 'n' : ''} ${matcher.type}, got ${typeName(actual)} ${show(actual)}`;
  if (matcher.length !== undefined) {
    const length = typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
    if (length !== matcher.length) return `expected length ${matcher.length}, got ${length === undefined ? `${typeName(actual)} (no length)` : length}`;
  }
  if (matcher.gte !== undefined && !(typeof actual === 'number' && actual >= matcher.gte)) return `expected ≥ ${matcher.gte}, got ${show(actual)}`;
  if (matcher.lte !== undefined && !(typeof actual === 'number' && actual <= matcher.lte)) return `expected ≤ ${matcher.lte}, got ${show(actual)}`;
  return undefined;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The text `text`, `contains` and `matches` read: the text items of a result, prompt or resource; a local tool's value. */
export function textOf(result: unknown): string {
  if (typeof result === 'string') return result;
  if (isObject(result)) {
    if (Array.isArray(result.content)) return textParts(result.content);
    if (Array.isArray(result.contents)) return textParts(result.contents);
    if (Array.isArray(result.messages)) return textParts(result.messages.map((message) => (isObject(message) ? message.content : undefined)));
  }
  return result === undefined ? '' : JSON.stringify(result);
}

function textParts(items: unknown[]): string {
  return items.flatMap((item) => (isObject(item) && typeof item.text === 'string' ? [item.text] : [])).join('\n');
}

/** The JSON `json` and `schema` judge: structuredContent, else the JSON in the text, else a local tool's value. */
function jsonOf(result: unknown): { value?: unknown; problem?: string } {
  if (isObject(result) && 'structuredContent' in result) return { value: result.structuredContent };
  if (isObject(result) && (Array.isArray(result.content) || Array.isArray(result.contents) || Array.isArray(result.messages))) {
    const text = textOf(result);
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return { problem: 'the result has no structuredContent and its text is not JSON' };
    }
  }
  return { value: result };
}
