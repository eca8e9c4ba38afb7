import { describe, expect, it } from 'vitest';
import { backtracksLittle, boundedRegExpEngine } from '../../src/text/bounded-regex.js';

describe("a schema pattern's engine (Ajv's code.regExp)", () => {
  it('tests a pattern that backtracks little on the main thread, and one that can backtrack badly in the worker, with the same answers', () => {
    for (const pattern of ['^[a-z0-9-]+$', '^\\d{4}-\\d{2}-\\d{2}$', '^sk-', 'a*b']) expect(backtracksLittle(pattern), pattern).toBe(true);
    for (const pattern of ['(a+)+$', '(.*a){30}', '^(\\w+\\s?)*$', '[a-z]*[0-9]*', '(x)\\1', 'a{2,}b*', '(?:ab)*c']) expect(backtracksLittle(pattern), pattern).toBe(false);
    const simple = boundedRegExpEngine('^[a-z0-9-]+$', 'u');
    expect([simple.test('my-server-2'), simple.test('Not OK')]).toEqual([true, false]);
    const nested = boundedRegExpEngine('^(a|b)+$', 'u');
    expect([nested.test('abba'), nested.test('abc')]).toEqual([true, false]);
  });
});
