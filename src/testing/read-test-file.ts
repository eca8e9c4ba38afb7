import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, type YAMLMap } from 'yaml';
import { ConfigError } from '../errors.js';
import { checkSchema } from '../schema/compile-schema.js';
import { compileJsonPath } from './json-path.js';
import { referencesIn } from './expand-references.js';
import type { Expectation, FilePlace, StepAction, StepAsks, TestFile, TestStep, ValueMatcher } from './test-file-types.js';
import { parseAnswersFile } from '../elicit/answers-file.js';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const FILE_KEYS = new Set(['$schema', 'server', 'tests', 'setup', 'teardown']);
const ACTIONS = ['call', 'read', 'get', 'list'] as const;
const STEP_KEYS = new Set([...ACTIONS, 'name', 'server', 'args', 'expect', 'save', 'ignore', 'skip', 'only', 'timeout', 'answers', 'sampling', 'roots']);
const MATCHERS = new Set(['text', 'contains', 'matches', 'json', 'schema', 'path', 'error', 'snapshot', 'latencyMs', 'notifications']);
const VALUE_MATCHERS = new Set(['equals', 'contains', 'matches', 'type', 'length', 'gte', 'lte']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const LISTS = new Set(['tools', 'resources', 'prompts']);

/**
 * Reads a test file (YAML, or JSON, which YAML reads too) into steps that know their place. Every
 * problem — syntax, an unknown key or matcher, a JSONPath or regex that does not parse, a `${name}`
 * no earlier step saves and the environment lacks — is a ConfigError (exit 3) `FILE:LINE:COL: …`,
 * raised before any server starts.
 */
export function readTestFile(path: string, text: string, env: NodeJS.ProcessEnv, shownAs = path): TestFile {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const placeOf = (node: YamlNode | undefined | null, offset = 0): FilePlace => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? offset);
    return { line, column: col };
  };
  const fail = (where: FilePlace, problem: string): never => {
    throw new ConfigError(`${shownAs}:${where.line}:${where.column}: ${problem}`, { file: path });
  };
  const syntax = document.errors[0];
  if (syntax) {
    const { line, col } = lines.linePos(syntax.pos[0]);
    fail({ line, column: col }, `not valid YAML or JSON: ${syntax.message.split('\n')[0]}`);
  }
  const root = document.contents;
  if (!isMap(root)) fail(placeOf(root), 'a test file is a mapping with a `tests:` list (see toolrun test --help)');
  const top = entries(root as YAMLMap, FILE_KEYS, 'file', fail, placeOf);
  const server = optionalString(top.get('server'), 'server', fail, placeOf);
  const testsNode = top.get('tests');
  if (!testsNode) fail(placeOf(root), 'the file has no `tests:` list');
  const saved = new Set<string>();
  const steps = (node: YamlNode | undefined, section: 'tests' | 'setup' | 'teardown'): TestStep[] => {
    if (!node) return [];
    if (!isSeq(node)) return fail(placeOf(node), `\`${section}:\` must be a list of steps`);
    return node.items.map((item, index) => readStep(item as YamlNode, `${section === 'tests' ? 'test' : section} ${index + 1}`, section === 'tests'));
  };
  const readStep = (node: YamlNode, fallbackName: string, needsName: boolean): TestStep => {
    if (!isMap(node)) return fail(placeOf(node), 'a step is a mapping: name, one of call/read/get/list, args, expect');
    const fields = entries(node, STEP_KEYS, 'step', fail, placeOf);
    const name = optionalString(fields.get('name'), 'name', fail, placeOf);
    if (needsName && name === undefined) fail(placeOf(node), 'this test has no `name:`');
    const place = placeOf(node);
    const given = ACTIONS.filter((action) => fields.has(action));
    if (given.length !== 1)
      fail(place, given.length === 0 ? 'a step needs one of call: TOOL, read: URI, get: PROMPT, list: tools|resources|prompts' : `a step does one thing: it has ${given.join(' and ')}`);
    const actionKey = given[0]!;
    const target = optionalString(fields.get(actionKey), actionKey, fail, placeOf)!;
    let stepServer = optionalString(fields.get('server'), 'server', fail, placeOf);
    let action: StepAction;
    if (actionKey === 'call') {
      const colon = target.indexOf(':');
      if (colon > 0) stepServer = target.slice(0, colon);
      action = { kind: 'call', tool: colon > 0 ? target.slice(colon + 1) : target };
    } else if (actionKey === 'read') action = { kind: 'read', uri: target };
    else if (actionKey === 'get') action = { kind: 'get', prompt: target };
    else {
      if (!LISTS.has(target)) fail(placeOf(fields.get('list')), `list: takes tools, resources or prompts, not ${JSON.stringify(target)}`);
      action = { kind: 'list', what: target as 'tools' | 'resources' | 'prompts' };
    }
    const argsNode = fields.get('args');
    if (argsNode && !isMap(argsNode)) fail(placeOf(argsNode), '`args:` must be a mapping of argument names to values');
    const args = (argsNode?.toJSON() ?? {}) as Record<string, unknown>;
    if (argsNode) checkReferences(argsNode as YAMLMap, saved, env, fail, placeOf);
    const expectation = readExpectation(fields.get('expect'), fail, placeOf);
    const save: Record<string, string> = {};
    const saveNode = fields.get('save');
    if (saveNode) {
      if (!isMap(saveNode)) fail(placeOf(saveNode), '`save:` maps names to JSONPaths: save: { id: "$.structuredContent.id" }');
      for (const pair of (saveNode as YAMLMap).items) {
        const key = String((pair.key as YamlNode & { value?: unknown })?.toJSON?.() ?? pair.key);
        if (!/^[A-Za-z_][\w-]*$/.test(key)) fail(placeOf(pair.key as YamlNode), `save name ${JSON.stringify(key)}: use letters, digits, _ and - (it is written \${${key}})`);
        save[key] = jsonPathAt(pair.value as YamlNode, fail, placeOf);
      }
    }
    const ignoreNode = fields.get('ignore');
    const ignore: string[] = [];
    if (ignoreNode) {
      if (!isSeq(ignoreNode)) fail(placeOf(ignoreNode), '`ignore:` is a list of JSONPaths left out of the snapshot');
      for (const item of (ignoreNode as { items: YamlNode[] }).items) ignore.push(jsonPathAt(item, fail, placeOf));
    }
    const skipNode = fields.get('skip');
    const skip = skipNode === undefined ? undefined : skipValue(skipNode, fail, placeOf);
    const onlyNode = fields.get('only');
    if (onlyNode && typeof onlyNode.toJSON() !== 'boolean') fail(placeOf(onlyNode), '`only:` is true or false');
    const timeoutNode = fields.get('timeout');
    const timeoutMs = timeoutNode === undefined ? undefined : (timeoutNode.toJSON() as unknown);
    if (timeoutNode && !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) fail(placeOf(timeoutNode), '`timeout:` is a number of milliseconds over 0');
    const asks = readAsks(fields, path, fail, placeOf);
    // Saved names exist for the steps after this one (a step cannot use what it saves itself).
    for (const key of Object.keys(save)) saved.add(key);
    return {
      name: name ?? fallbackName,
      place,
      action,
      server: stepServer ?? server,
      args,
      expect: expectation,
      save,
      ignore,
      ...(skip !== undefined ? { skip } : {}),
      only: onlyNode?.toJSON() === true,
      ...(timeoutMs !== undefined ? { timeoutMs: timeoutMs as number } : {}),
      ...(asks ? { asks } : {}),
    };
  };
  const setup = steps(top.get('setup'), 'setup');
  const tests = steps(testsNode, 'tests');
  const teardown = steps(top.get('teardown'), 'teardown');
  if (tests.length === 0) fail(placeOf(testsNode), '`tests:` is empty');
  const names = new Map<string, FilePlace>();
  for (const test of tests) {
    const earlier = names.get(test.name);
    if (earlier) fail(test.place, `two tests are named ${JSON.stringify(test.name)} (the other at line ${earlier.line}): names identify snapshots and reports`);
    names.set(test.name, test.place);
  }
  return { path, ...(server !== undefined ? { server } : {}), tests, setup, teardown };
}

type Fail = (where: FilePlace, problem: string) => never;

/** `answers:` (rounds as in an --answers file), `sampling:` (reply texts), `roots:` (folders, from the test file's folder). */
function readAsks(fields: Map<string, YamlNode>, path: string, fail: Fail, placeOf: PlaceOf): StepAsks | undefined {
  const asks: StepAsks = {};
  const answers = fields.get('answers');
  if (answers) {
    if (!isSeq(answers)) fail(placeOf(answers), '`answers:` is a list of elicitation rounds: [{ action: accept, content: { name: Ada } }] or the contents themselves');
    asks.answers = (answers as { items: YamlNode[] }).items.flatMap((item, index) => {
      try {
        return parseAnswersFile(JSON.stringify(item?.toJSON?.() ?? null), `answers round ${index + 1}`);
      } catch (error) {
        return fail(placeOf(item), (error as Error).message);
      }
    });
  }
  const list = (key: 'sampling' | 'roots') => {
    const node = fields.get(key);
    if (!node) return undefined;
    const value = node.toJSON() as unknown;
    const items = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string'))
      return fail(placeOf(node), `\`${key}:\` is a list of ${key === 'sampling' ? 'reply texts (one per sampling request)' : 'folders'}`);
    return { node, items: items as string[] };
  };
  const sampling = list('sampling');
  if (sampling) asks.sampling = sampling.items;
  const roots = list('roots');
  if (roots) {
    asks.roots = roots.items.map((root) => {
      const folder = resolve(dirname(path), root);
      let isFolder = false;
      try {
        isFolder = statSync(folder).isDirectory();
      } catch {
        // Not there: said below.
      }
      if (!isFolder) fail(placeOf(roots.node), `root ${JSON.stringify(root)}: no such folder (${folder}); roots are folders, from the test file's folder`);
      return folder;
    });
  }
  return Object.keys(asks).length > 0 ? asks : undefined;
}
type PlaceOf = (node: YamlNode | undefined | null) => FilePlace;

/** A mapping's entries by key, refusing keys it does not know (with the nearest known one). */
function entries(map: YAMLMap, known: Set<string>, what: string, fail: Fail, placeOf: PlaceOf): Map<string, YamlNode> {
  const found = new Map<string, YamlNode>();
  for (const pair of map.items) {
    const keyNode = pair.key as YamlNode;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    if (!known.has(key)) fail(placeOf(keyNode), `unknown ${what} key ${JSON.stringify(key)}; ${what} keys are ${[...known].filter((name) => name !== '$schema').join(', ')}`);
    found.set(key, pair.value as YamlNode);
  }
  return found;
}

function optionalString(node: YamlNode | undefined, key: string, fail: Fail, placeOf: PlaceOf): string | undefined {
  if (node === undefined) return undefined;
  const value = node === null ? null : node.toJSON();
  if (typeof value !== 'string' || value === '') return fail(placeOf(node), `\`${key}:\` must be a non-empty string`);
  return value;
}

function skipValue(node: YamlNode, fail: Fail, placeOf: PlaceOf): string | true | undefined {
  const value = node.toJSON() as unknown;
  if (value === true) return true;
  if (value === false) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  return fail(placeOf(node), '`skip:` is true, or the reason as a string');
}

function jsonPathAt(node: YamlNode, fail: Fail, placeOf: PlaceOf): string {
  const path = node?.toJSON?.() as unknown;
  if (typeof path !== 'string') return fail(placeOf(node), 'a JSONPath is a string starting with $');
  const problem = compileJsonPath(path).problem;
  if (problem) fail(placeOf(node), `JSONPath ${JSON.stringify(path)} does not parse: ${problem}`);
  return path;
}

function readExpectation(node: YamlNode | undefined, fail: Fail, placeOf: PlaceOf): Expectation {
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

function checkValueMatcher(matcher: ValueMatcher, at: FilePlace, fail: Fail): void {
  if (matcher.matches !== undefined) checkRegex(matcher.matches, at, fail);
  if (matcher.type !== undefined && !TYPES.has(matcher.type)) fail(at, `\`type:\` is one of ${[...TYPES].join(', ')}`);
  for (const key of ['length', 'gte', 'lte'] as const) if (matcher[key] !== undefined && typeof matcher[key] !== 'number') fail(at, `\`${key}:\` is a number`);
}

/** Every `${name}` in the args must be saved by an earlier step or set in the environment. */
function checkReferences(node: YamlNode, saved: Set<string>, env: NodeJS.ProcessEnv, fail: Fail, placeOf: PlaceOf): void {
  const visit = (item: YamlNode | null | undefined) => {
    if (!item) return;
    if (isScalar(item)) {
      if (typeof item.value !== 'string') return;
      for (const name of referencesIn(item.value))
        if (!saved.has(name) && env[name] === undefined) fail(placeOf(item), `\${${name}} is not saved by an earlier step (save: { ${name}: "$.…" }) and not set in the environment`);
      return;
    }
    if (isMap(item)) for (const pair of item.items) visit(pair.value as YamlNode);
    if (isSeq(item)) for (const element of item.items) visit(element as YamlNode);
  };
  visit(node);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
