import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, type YAMLMap } from 'yaml';
import { ConfigError } from '../errors.js';
import { jsonPathAt, readExpectation, type Fail, type PlaceOf } from './read-expectation.js';
import { referencesIn } from './expand-references.js';
import type { FilePlace, StepAction, StepAsks, TestFile, TestStep } from './test-file-types.js';
import { parseAnswersFile } from '../elicit/answers-file.js';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const FILE_KEYS = new Set(['$schema', 'server', 'env', 'validate', 'tests', 'setup', 'teardown']);
const ENV_NAME = /^[A-Za-z_][\w-]*$/;
const ACTIONS = ['call', 'read', 'get', 'list', 'skill'] as const;
const STEP_KEYS = new Set([...ACTIONS, 'name', 'server', 'args', 'expect', 'save', 'ignore', 'skip', 'only', 'timeout', 'validate', 'answers', 'sampling', 'roots']);
const LISTS = new Set(['tools', 'resources', 'prompts', 'skills']);

/**
 * Reads a test file (YAML, or JSON, which YAML reads too) into steps that know their place. Every
 * problem — syntax, an unknown key or matcher, a JSONPath or regex that does not parse, a `${name}`
 * no earlier step saves and the environment lacks — is a ConfigError (exit 3) `FILE:LINE:COL: …`,
 * raised before any server starts.
 */
export function readTestFile(path: string, text: string, env: NodeJS.ProcessEnv, shownAs = path, allowEnv: readonly string[] = []): TestFile {
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
  const serverNode = top.get('server');
  const server = optionalString(serverNode, 'server', fail, placeOf);
  const fileValidate = optionalBoolean(top.get('validate'), 'validate', fail, placeOf);
  const testsNode = top.get('tests');
  if (!testsNode) fail(placeOf(root), 'the file has no `tests:` list');
  // A test file may come from a pull request: `${NAME}` reads only the variables it lists (env:) or --env allows.
  const visible = visibleEnv(env, [...allowEnv, ...envNames(top.get('env'), fail, placeOf)]);
  const saved = new Set<string>();
  const steps = (node: YamlNode | undefined, section: 'tests' | 'setup' | 'teardown'): TestStep[] => {
    if (!node) return [];
    if (!isSeq(node)) return fail(placeOf(node), `\`${section}:\` must be a list of steps`);
    return node.items.map((item, index) => readStep(item as YamlNode, `${section === 'tests' ? 'test' : section} ${index + 1}`, section === 'tests'));
  };
  const readStep = (node: YamlNode, fallbackName: string, needsName: boolean): TestStep => {
    if (!isMap(node)) return fail(placeOf(node), 'a step is a mapping: name, one of call/read/get/list/skill, args, expect');
    const fields = entries(node, STEP_KEYS, 'step', fail, placeOf);
    const name = optionalString(fields.get('name'), 'name', fail, placeOf);
    if (needsName && name === undefined) fail(placeOf(node), 'this test has no `name:`');
    const place = placeOf(node);
    const given = ACTIONS.filter((action) => fields.has(action));
    if (given.length !== 1)
      fail(
        place,
        given.length === 0 ? 'a step needs one of call: TOOL, read: URI, get: PROMPT, list: tools|resources|prompts|skills, skill: SKILL' : `a step does one thing: it has ${given.join(' and ')}`,
      );
    const actionKey = given[0]!;
    const target = optionalString(fields.get(actionKey), actionKey, fail, placeOf)!;
    let stepServer = optionalString(fields.get('server'), 'server', fail, placeOf);
    // Where the step's server is named: its call: SERVER:TOOL, its server:, else the file's server:.
    let serverPlace = stepServer !== undefined ? placeOf(fields.get('server')) : serverNode ? placeOf(serverNode) : undefined;
    let action: StepAction;
    if (actionKey === 'call') {
      const colon = target.indexOf(':');
      if (colon > 0) {
        stepServer = target.slice(0, colon);
        serverPlace = placeOf(fields.get('call'));
      }
      action = { kind: 'call', tool: colon > 0 ? target.slice(colon + 1) : target };
    } else if (actionKey === 'read') action = { kind: 'read', uri: target };
    else if (actionKey === 'get') action = { kind: 'get', prompt: target };
    else if (actionKey === 'skill') {
      // skill: SERVER:SKILL as call: SERVER:TOOL, but a SKILL.md URI's scheme (skill://…) is no server.
      const colon = target.indexOf(':');
      const named = colon > 0 && !target.slice(colon + 1).startsWith('//');
      if (named) {
        stepServer = target.slice(0, colon);
        serverPlace = placeOf(fields.get('skill'));
      }
      action = { kind: 'skill', skill: named ? target.slice(colon + 1) : target };
    } else {
      if (!LISTS.has(target)) fail(placeOf(fields.get('list')), `list: takes tools, resources, prompts or skills, not ${JSON.stringify(target)}`);
      action = { kind: 'list', what: target as 'tools' | 'resources' | 'prompts' | 'skills' };
    }
    const argsNode = fields.get('args');
    if (argsNode && !isMap(argsNode)) fail(placeOf(argsNode), '`args:` must be a mapping of argument names to values');
    const args = (argsNode?.toJSON() ?? {}) as Record<string, unknown>;
    if (argsNode) checkReferences(argsNode as YAMLMap, saved, visible, env, fail, placeOf);
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
    // validate: false sends the call as written: no check of the tool name or the arguments, no typing.
    const ownValidate = optionalBoolean(fields.get('validate'), 'validate', fail, placeOf);
    if (ownValidate === false && actionKey !== 'call') fail(placeOf(fields.get('validate')), '`validate: false` is for call: steps (read, get and list send what they are given already)');
    const validate = actionKey === 'call' ? (ownValidate ?? fileValidate) : undefined;
    // Saved names exist for the steps after this one (a step cannot use what it saves itself).
    for (const key of Object.keys(save)) saved.add(key);
    return {
      name: name ?? fallbackName,
      place,
      action,
      server: stepServer ?? server,
      ...((stepServer ?? server) !== undefined && serverPlace ? { serverPlace } : {}),
      args,
      expect: expectation,
      save,
      ignore,
      ...(skip !== undefined ? { skip } : {}),
      only: onlyNode?.toJSON() === true,
      ...(timeoutMs !== undefined ? { timeoutMs: timeoutMs as number } : {}),
      ...(asks ? { asks } : {}),
      ...(validate === false ? { validate: false as const } : {}),
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
  return { path, ...(server !== undefined ? { server } : {}), tests, setup, teardown, env: visible };
}

/** The top-level `env: [NAME, …]`: the environment variables the file's `${NAME}` may read. */
function envNames(node: YamlNode | undefined, fail: Fail, placeOf: PlaceOf): string[] {
  if (node === undefined) return [];
  const value = node === null ? null : (node.toJSON() as unknown);
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && ENV_NAME.test(name)))
    return fail(placeOf(node), '`env:` lists the environment variables ${NAME} may read, as names: env: [API_URL, GITHUB_TOKEN]');
  return value as string[];
}

function visibleEnv(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  const visible: Record<string, string> = {};
  for (const name of names) if (Object.hasOwn(env, name) && env[name] !== undefined) visible[name] = env[name];
  return visible;
}

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

function optionalBoolean(node: YamlNode | undefined, key: string, fail: Fail, placeOf: PlaceOf): boolean | undefined {
  if (node === undefined) return undefined;
  const value = node === null ? null : node.toJSON();
  if (typeof value !== 'boolean') return fail(placeOf(node), `\`${key}:\` is true or false`);
  return value;
}

function skipValue(node: YamlNode, fail: Fail, placeOf: PlaceOf): string | true | undefined {
  const value = node.toJSON() as unknown;
  if (value === true) return true;
  if (value === false) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  return fail(placeOf(node), '`skip:` is true, or the reason as a string');
}

/** Every `${name}` in the args must be saved by an earlier step, or allowed (env:, --env) and set in the environment. */
function checkReferences(node: YamlNode, saved: Set<string>, visible: Record<string, string>, env: NodeJS.ProcessEnv, fail: Fail, placeOf: PlaceOf): void {
  const visit = (item: YamlNode | null | undefined) => {
    if (!item) return;
    if (isScalar(item)) {
      if (typeof item.value !== 'string') return;
      for (const name of referencesIn(item.value)) {
        if (saved.has(name) || Object.hasOwn(visible, name)) continue;
        if (env[name] !== undefined)
          fail(placeOf(item), `\${${name}} is not saved by an earlier step and this file may not read it from the environment: list it in the file's top-level env: [${name}] or pass --env ${name}`);
        fail(placeOf(item), `\${${name}} is not saved by an earlier step (save: { ${name}: "$.…" }) and not set in the environment`);
      }
      return;
    }
    if (isMap(item)) for (const pair of item.items) visit(pair.value as YamlNode);
    if (isSeq(item)) for (const element of item.items) visit(element as YamlNode);
  };
  visit(node);
}
