import { describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/config/parse-jsonc.js';

// Bounded work (SPEC §8, issue #19 item 18): a config is read in time and memory proportional to its
// size, whatever it holds. The bounds are generous (a shared CI machine); the old parser took 17 s and
// 2.2 GB on 60 MB of whitespace inside an object, building the whitespace up one character at a time.
const MB = 1024 * 1024;

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}

describe('parseJsonc on 32 MB inputs', () => {
  it.each([
    ['spaces inside an object', `{${' '.repeat(32 * MB)}"timeoutMs": 5}`],
    ['a comment', `{"timeoutMs": 5 /*${'x'.repeat(32 * MB)}*/}`],
  ])('%s: parsed in well under the old time', (_what, text) => {
    const { value, ms } = timed(() => parseJsonc(text));
    expect(value).toEqual({ value: { timeoutMs: 5 } });
    expect(ms).toBeLessThan(5000);
  });

  it('a 32 MB string: parsed, its value intact', () => {
    const { value, ms } = timed(() => parseJsonc(`{"hint": "${'a'.repeat(32 * MB)}"}`));
    expect((value as { value: { hint: string } }).value.hint.length).toBe(32 * MB);
    expect(ms).toBeLessThan(5000);
  });

  it('32 MB of opening brackets: refused at the 101st level', () => {
    // Column 101 is where it stopped: a parser that went deeper would overflow its stack or report another place.
    expect(parseJsonc('['.repeat(32 * MB))).toEqual({ problem: { line: 1, column: 101, message: 'nested deeper than 100 levels; a config is never that deep', syntax: false } });
  });

  it('32 MB of commas in an array: the first problem, not millions of them', () => {
    const { value, ms } = timed(() => parseJsonc(`[1${','.repeat(32 * MB)}]`));
    expect(value).toEqual({ problem: { line: 1, column: 4, message: 'value expected', syntax: true } });
    expect(ms).toBeLessThan(5000);
  });
});

describe('parseJsonc: JSONC as before', () => {
  it.each([
    ['// c\n{ /* x */ "a": 1, "b": [1, 2,], }', { a: 1, b: [1, 2] }],
    ['{"s": "tab\\tq\\"\\u00e9\\/"}', { s: 'tab\tq"é/' }],
    ['[-1.5e3, 0, true, false, null, {}]', [-1500, 0, true, false, null, {}]],
    ['\ufeff {"a": {"b": {"c": "d"}}}\u00a0', { a: { b: { c: 'd' } } }],
  ])('%j', (text, expected) => {
    expect(parseJsonc(text)).toEqual({ value: expected });
  });

  it.each([
    ['{\n  "timeoutMs": 10\n  "slowToolMs": 5\n}', 3, 3, "',' expected"],
    ['{"a" 1}', 1, 6, "':' expected"],
    ['{"a": }', 1, 7, 'value expected'],
    ['{a: 1}', 1, 2, 'property name expected (keys need double quotes)'],
    ['{"a": 1', 1, 8, "'}' expected"],
    ['[1, 2', 1, 6, "']' expected"],
    ['{} {}', 1, 4, 'end of file expected (more than one top-level value)'],
    ['{"a": tru}', 1, 7, 'unexpected character'],
    ['{"a": "x\ny"}', 1, 7, 'unterminated string'],
    ['{"a": "\\x"}', 1, 7, 'invalid escape character'],
    ['{"a": "\\u12g4"}', 1, 7, 'invalid unicode escape'],
    ['{"a": "\u0001"}', 1, 7, 'invalid character in string'],
    ['{"a": 1.}', 1, 7, 'unterminated number'],
    ['{"a": 1e+}', 1, 7, 'unterminated number'],
    ['{"a": 1E}', 1, 7, 'unterminated number'],
    ['{"a": -}', 1, 7, 'unexpected character'],
    ['{"a": 1 /* x', 1, 9, 'unterminated comment'],
    ['', 1, 1, 'value expected'],
  ])('%j → %i:%i %s', (text, line, column, message) => {
    expect(parseJsonc(text)).toEqual({ problem: { line, column, message, syntax: true } });
  });

  it('numbers with a signed exponent are numbers (JSON allows 1e+2, 1E-5)', () => {
    expect(parseJsonc('{"a": [1e+2, 1E-5, -1.25e+10, 2E3, -0.5e-1]}')).toEqual({ value: { a: [100, 0.00001, -12500000000, 2000, -0.05] } });
  });

  it('objects have no prototype: "toString" is an ordinary key', () => {
    const parsed = parseJsonc('{"toString": 1}') as { value: Record<string, unknown> };
    expect(Object.getPrototypeOf(parsed.value)).toBeNull();
    expect(parsed.value.toString).toBe(1);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('the key %s is a plain key as a JSON Schema property name', (key) => {
    const parsed = parseJsonc(`{"tools": [{"parameters": {"properties": {"${key}": {"type": "string"}}}}]}`) as { value: { tools: Array<{ parameters: { properties: Record<string, unknown> } }> } };
    const properties = parsed.value.tools[0]!.parameters.properties;
    expect(Object.getOwnPropertyDescriptor(properties, key)?.value).toEqual({ type: 'string' });
    expect(Object.getPrototypeOf(properties)).toBeNull();
  });

  it('a "properties" key outside a tool schema is config: __proto__ under it is refused (a server named "properties")', () => {
    expect(parseJsonc('{"mcpServers": {"properties": {"command": "node", "__proto__": {"url": "http://x"}}}}')).toMatchObject({
      problem: { message: 'the key "__proto__" is not allowed (it would change how objects behave, not configure toolrun); rename or remove it' },
    });
  });

  it.each(['__proto__', 'constructor', 'prototype'])('the key %s is refused where it would be config', (key) => {
    expect(parseJsonc(`{\n  "mcpServers": {"${key}": {}}}`)).toEqual({
      problem: { line: 2, column: 18, message: `the key "${key}" is not allowed (it would change how objects behave, not configure toolrun); rename or remove it`, syntax: false },
    });
  });
});
