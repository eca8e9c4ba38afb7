import { describe, expect, it } from 'vitest';
import type { EvalExpectation } from '../../src/eval/eval-file-types.js';
import type { EvalCall } from '../../src/eval/eval-result.js';
import { judgeRun } from '../../src/eval/judge-run.js';
import { wilsonInterval } from '../../src/eval/wilson-interval.js';

const call = (tool: string | undefined, args: unknown, calledAs = tool ?? 'x'): EvalCall => ({ calledAs, ...(tool ? { tool } : {}), args, output: '', failed: false });
const expectation = (over: Partial<EvalExpectation>): EvalExpectation => ({ calls: [], order: 'any', forbid: [], maxTurns: 3, ...over });

describe('the 95% Wilson interval', () => {
  // Reference values: R's binom::binom.wilson / statsmodels proportion_confint(method="wilson"), to 4 places.
  it.each([
    [0, 10, 0, 0.2775],
    [5, 10, 0.2366, 0.7634],
    [10, 10, 0.7225, 1],
    [1, 1, 0.2065, 1],
    [2, 3, 0.2077, 0.9385],
    [45, 50, 0.7864, 0.9565],
  ])('%i of %i passed: [%f, %f]', (passed, runs, low, high) => {
    const interval = wilsonInterval(passed, runs);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });
});

describe('judging a run', () => {
  it('order: any takes the expected calls among others; an omitted argument is not checked; matchers as in test files', () => {
    const expect_ = expectation({ calls: [{ tool: 'search', args: { q: { contains: 'paris' } } }, { tool: 'open' }] });
    expect(judgeRun(expect_, [call('list', {}), call('open', { id: 7 }), call('search', { q: 'hotels in paris', limit: 5 })], true, '')).toEqual([]);
  });

  it('order: exact names the first call out of place', () => {
    const expect_ = expectation({ calls: [{ tool: 'a' }, { tool: 'b' }], order: 'exact' });
    expect(judgeRun(expect_, [call('b', {}), call('a', {})], true, '')).toEqual(['call 1: expected a, the model called b (order: exact)']);
    expect(judgeRun(expect_, [call('a', {})], true, '')).toEqual(['call 2: expected b; the model made 1 call (order: exact)']);
    expect(judgeRun(expect_, [call('a', {}), call('b', {}), call('b', {})], true, '')).toEqual(['call 3: the model called b, past the 2 expected (order: exact)']);
  });

  it('a missing argument, a name the host did not offer, a forbidden tool, the turn limit and the answer each say so', () => {
    const expect_ = expectation({ calls: [{ tool: 'search', args: { q: 'x' } }], forbid: ['drop'], answer: { matches: '^Done' } });
    expect(judgeRun(expect_, [call(undefined, {}, 'search_v2'), call('drop', {}), call('search', {})], true, 'Finished.')).toEqual([
      'called "search_v2", a tool it was not offered',
      'called drop, which the case forbids',
      'search was called without q',
      'the answer: "Finished." does not match /^Done/',
    ]);
    expect(judgeRun(expectation({ maxTurns: 1 }), [], false, '')).toEqual(['no answer within 1 turn (maxTurns): the model was still calling tools']);
  });
});
