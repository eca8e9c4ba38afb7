import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, type YAMLMap } from 'yaml';
import { ConfigError } from '../errors.js';
import { checkValueMatcher, isValueMatcher, type Fail, type PlaceOf } from '../testing/read-expectation.js';
import type { FilePlace } from '../testing/test-file-types.js';
import { caseSlug } from './cassette/cassette-files.js';
import type { EvalCase, EvalExpectation, EvalFile, ExpectedCall } from './eval-file-types.js';

const FILE_KEYS = ['$schema', 'server', 'cases'];
const CASE_KEYS = ['name', 'prompt', 'runs', 'expect'];
const EXPECT_KEYS = ['calls', 'order', 'forbid', 'maxTurns', 'answer'];
const CALL_KEYS = ['tool', 'args'];
/** A case that says no turn limit gets this many model requests: enough for a few calls and the answer. */
export const DEFAULT_MAX_TURNS = 5;
/** More runs than this per case and model is a cost mistake, not a measurement. */
const MAX_RUNS = 1000;

/**
 * Reads an eval file (YAML, or JSON, which YAML reads too). Every problem is a ConfigError (exit 3)
 * `FILE:LINE:COL: problem; fix`, raised before any server starts or model is asked, as
 * src/testing/read-test-file.ts does for test files (its matchers are checked by the same code).
 */
export function readEvalFile(path: string, text: string, shownAs = path): EvalFile {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const placeOf: PlaceOf = (node) => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return { line, column: col };
  };
  const fail: Fail = (where: FilePlace, problem: string) => {
    throw new ConfigError(`${shownAs}:${where.line}:${where.column}: ${problem}`, { file: path });
  };
  const syntax = document.errors[0];
  if (syntax) {
    const { line, col } = lines.linePos(syntax.pos[0]);
    fail({ line, column: col }, `not valid YAML or JSON: ${syntax.message.split('\n')[0]}`);
  }
  const root = document.contents as YamlNode | null;
  if (!isMap(root)) return fail(placeOf(root), 'an eval file is a mapping with a `cases:` list (see toolrun eval --help)');
  const top = fieldsOf(root, FILE_KEYS, 'file', fail, placeOf);
  const server = top.has('server') ? nonEmptyString(top.get('server'), 'server', fail, placeOf) : undefined;
  const casesNode = top.get('cases');
  if (!isSeq(casesNode)) return fail(placeOf(casesNode ?? root), casesNode ? '`cases:` is a list of cases: - { name, prompt, expect }' : 'the file has no `cases:` list');
  if (casesNode.items.length === 0) fail(placeOf(casesNode), '`cases:` is empty: add a case with name, prompt and expect');
  const cases = casesNode.items.map((item) => readCase(item as YamlNode, fail, placeOf));
  // A case's cassettes are in a folder named after it (caseSlug): two names that give one folder would share them.
  const seen = new Map<string, EvalCase>();
  for (const each of cases) {
    const earlier = seen.get(caseSlug(each.name));
    if (earlier?.name === each.name)
      fail(each.place, `two cases are named ${JSON.stringify(each.name)} (the other at line ${earlier.place.line}): rename one (names key the reports and the cassettes)`);
    if (earlier)
      fail(
        each.place,
        `cases ${JSON.stringify(earlier.name)} (line ${earlier.place.line}) and ${JSON.stringify(each.name)} would share the cassette folder ${caseSlug(each.name)}: rename one so they differ in more than case and punctuation`,
      );
    seen.set(caseSlug(each.name), each);
  }
  return { path, ...(server !== undefined ? { server } : {}), cases };
}

function readCase(node: YamlNode, fail: Fail, placeOf: PlaceOf): EvalCase {
  if (!isMap(node)) return fail(placeOf(node), 'a case is a mapping: name, prompt, runs, expect');
  const fields = fieldsOf(node, CASE_KEYS, 'case', fail, placeOf);
  if (!fields.has('name')) fail(placeOf(node), 'this case has no `name:`');
  if (!fields.has('prompt')) fail(placeOf(node), 'this case has no `prompt:` (what the model is asked)');
  if (!fields.has('expect')) fail(placeOf(node), 'this case has no `expect:` (calls, order, forbid, maxTurns, answer)');
  const runsNode = fields.get('runs');
  const runs = runsNode === undefined ? 1 : (runsNode?.toJSON() as unknown);
  if (!(Number.isInteger(runs) && (runs as number) >= 1 && (runs as number) <= MAX_RUNS)) fail(placeOf(runsNode), `\`runs:\` is a whole number from 1 to ${MAX_RUNS}`);
  return {
    name: nonEmptyString(fields.get('name'), 'name', fail, placeOf),
    place: placeOf(node),
    prompt: nonEmptyString(fields.get('prompt'), 'prompt', fail, placeOf),
    runs: runs as number,
    expect: readExpect(fields.get('expect')!, fail, placeOf),
  };
}

function readExpect(node: YamlNode, fail: Fail, placeOf: PlaceOf): EvalExpectation {
  if (!isMap(node)) return fail(placeOf(node), '`expect:` is a mapping: calls, order, forbid, maxTurns, answer');
  const fields = fieldsOf(node, EXPECT_KEYS, 'expect', fail, placeOf);
  const callsNode = fields.get('calls');
  if (callsNode !== undefined && !isSeq(callsNode)) fail(placeOf(callsNode), '`calls:` is a list: - { tool: NAME, args: { … } }');
  const calls = callsNode ? (callsNode as { items: YamlNode[] }).items.map((item) => readCall(item, fail, placeOf)) : [];
  const orderNode = fields.get('order');
  const order = orderNode === undefined ? 'any' : (orderNode?.toJSON() as unknown);
  if (order !== 'any' && order !== 'exact') fail(placeOf(orderNode), '`order:` is any (each call made, others allowed) or exact (these calls, in this order)');
  const forbidNode = fields.get('forbid');
  const forbid = forbidNode === undefined ? [] : (forbidNode?.toJSON() as unknown);
  if (!Array.isArray(forbid) || !forbid.every((name) => typeof name === 'string' && name !== ''))
    fail(placeOf(forbidNode), '`forbid:` is a list of tool names the model must not call: forbid: [delete_file]');
  const turnsNode = fields.get('maxTurns');
  const maxTurns = turnsNode === undefined ? DEFAULT_MAX_TURNS : (turnsNode?.toJSON() as unknown);
  if (!(Number.isInteger(maxTurns) && (maxTurns as number) >= 1 && (maxTurns as number) <= 100)) fail(placeOf(turnsNode), '`maxTurns:` is a whole number of model requests from 1 to 100');
  const answerNode = fields.get('answer');
  const answer = answerNode === undefined ? undefined : (answerNode?.toJSON() as unknown);
  if (answerNode !== undefined) checkMatcherValue(answer, placeOf(answerNode), fail, 'answer', true);
  return { calls, order: order as 'any' | 'exact', forbid: forbid as string[], maxTurns: maxTurns as number, ...(answerNode !== undefined ? { answer } : {}) };
}

function readCall(node: YamlNode, fail: Fail, placeOf: PlaceOf): ExpectedCall {
  if (!isMap(node)) return fail(placeOf(node), 'an expected call is a mapping: { tool: NAME, args: { … } }');
  const fields = fieldsOf(node, CALL_KEYS, 'call', fail, placeOf);
  if (!fields.has('tool')) fail(placeOf(node), 'this call has no `tool:` (the tool the model should call)');
  const tool = nonEmptyString(fields.get('tool'), 'tool', fail, placeOf);
  const argsNode = fields.get('args');
  if (argsNode === undefined) return { tool };
  if (!isMap(argsNode)) return fail(placeOf(argsNode), '`args:` maps argument names to values or matchers: args: { city: Paris, days: { gte: 1 } }');
  for (const pair of (argsNode as YAMLMap).items)
    checkMatcherValue((pair.value as YamlNode | null)?.toJSON?.() as unknown, placeOf((pair.value as YamlNode) ?? (pair.key as YamlNode)), fail, 'args', false);
  return { tool, args: argsNode.toJSON() as Record<string, unknown> };
}

/** A value matcher ({equals, contains, matches, type, length, gte, lte}) is checked as test files check it; a literal stands as it is. */
function checkMatcherValue(value: unknown, at: FilePlace, fail: Fail, key: string, textOnly: boolean): void {
  if (isValueMatcher(value)) return checkValueMatcher(value, at, fail);
  if (textOnly && typeof value !== 'string') fail(at, `\`${key}:\` is a text the answer contains, or a matcher: { matches: "Paris" }, { equals: "…" }`);
}

/** A mapping's entries by key, refusing keys it does not know. */
function fieldsOf(map: YAMLMap, known: string[], what: string, fail: Fail, placeOf: PlaceOf): Map<string, YamlNode> {
  const found = new Map<string, YamlNode>();
  for (const pair of map.items) {
    const keyNode = pair.key as YamlNode;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    if (!known.includes(key)) fail(placeOf(keyNode), `unknown ${what} key ${JSON.stringify(key)}; ${what} keys are ${known.filter((name) => name !== '$schema').join(', ')}`);
    found.set(key, pair.value as YamlNode);
  }
  return found;
}

function nonEmptyString(node: YamlNode | undefined, key: string, fail: Fail, placeOf: PlaceOf): string {
  const value = node === null || node === undefined ? null : node.toJSON();
  if (typeof value !== 'string' || value === '') return fail(placeOf(node), `\`${key}:\` must be a non-empty string`);
  return value;
}
