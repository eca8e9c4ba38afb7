import { checkValue, toMatcher } from '../testing/match-expectations.js';
import type { EvalExpectation, ExpectedCall } from './eval-file-types.js';
import type { EvalCall } from './eval-result.js';

/**
 * Why a run fails its case's expectations (empty: it passes). Pure: the calls made, whether the
 * model answered within its turns, and the answer's text in; one line per problem out.
 */
export function judgeRun(expect: EvalExpectation, calls: EvalCall[], answered: boolean, answer: string): string[] {
  const failures: string[] = [];
  for (const call of calls) if (call.tool === undefined) failures.push(`called ${JSON.stringify(call.calledAs)}, a tool it was not offered`);
  for (const call of calls) if (call.tool !== undefined && expect.forbid.includes(call.tool)) failures.push(`called ${call.tool}, which the case forbids`);
  const made = calls.filter((call) => call.tool !== undefined);
  if (expect.order === 'exact') failures.push(...exactProblems(expect.calls, made));
  else failures.push(...anyOrderProblems(expect.calls, made));
  if (!answered) failures.push(`no answer within ${expect.maxTurns} turn${expect.maxTurns === 1 ? '' : 's'} (maxTurns): the model was still calling tools`);
  else if (expect.answer !== undefined) {
    const problem = checkValue(toMatcher(expect.answer, 'contains'), answer);
    if (problem) failures.push(`the answer: ${problem}`);
  }
  return failures;
}

/** Why `call` is not `expected`: another tool, or an argument that fails its matcher. */
function callProblem(expected: ExpectedCall, call: EvalCall): string | undefined {
  if (call.tool !== expected.tool) return `expected ${expected.tool}, the model called ${call.tool}`;
  const args = isRecord(call.args) ? call.args : {};
  for (const [name, matcher] of Object.entries(expected.args ?? {})) {
    if (!Object.hasOwn(args, name)) return `${expected.tool} was called without ${name}`;
    const problem = checkValue(toMatcher(matcher, 'equals'), args[name]);
    if (problem) return `${expected.tool} was called with ${name}: ${problem}`;
  }
  return undefined;
}

function anyOrderProblems(expected: ExpectedCall[], made: EvalCall[]): string[] {
  const unused = [...made];
  const problems: string[] = [];
  for (const each of expected) {
    const index = unused.findIndex((call) => callProblem(each, call) === undefined);
    if (index >= 0) {
      unused.splice(index, 1);
      continue;
    }
    // The nearest miss explains best: a call of the right tool (its arguments are what failed), else the first call.
    const sameTool = made.find((call) => call.tool === each.tool);
    if (sameTool) problems.push(callProblem(each, sameTool)!);
    else
      problems.push(made.length === 0 ? `expected a call to ${each.tool}; the model called no tool` : `expected a call to ${each.tool}; the model called ${made.map((call) => call.tool).join(', ')}`);
  }
  return problems;
}

function exactProblems(expected: ExpectedCall[], made: EvalCall[]): string[] {
  for (let index = 0; index < Math.max(expected.length, made.length); index++) {
    const want = expected[index];
    const got = made[index];
    if (!want) return [`call ${index + 1}: the model called ${got!.tool}, past the ${expected.length} expected (order: exact)`];
    if (!got) return [`call ${index + 1}: expected ${want.tool}; the model made ${made.length} call${made.length === 1 ? '' : 's'} (order: exact)`];
    const problem = callProblem(want, got);
    if (problem) return [`call ${index + 1}: ${problem} (order: exact)`];
  }
  return [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
