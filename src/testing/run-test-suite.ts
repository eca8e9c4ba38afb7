import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { REGEX_TIME_LIMIT_MS, warmRegexWorker } from '../text/bounded-regex.js';
import { expandReferences, referencesIn } from './expand-references.js';
import { selectNodes } from './json-path.js';
import { matchExpectations, type MatchFailure, type StepOutcome } from './match-expectations.js';
import { environmentSecrets, normalizeForSnapshot, SnapshotStore } from './snapshots.js';
import type { FilePlace, StepAction, StepAsks, TestFile, TestStep } from './test-file-types.js';

/** A step ready to run: its `${…}` expanded. */
export interface StepRequest {
  action: StepAction;
  server?: string;
  args: Record<string, unknown>;
  timeoutMs?: number;
  /** The step's `latencyMs: {max}`: with timeoutMs, the step's own word on how long the call may take. */
  latencyMaxMs?: number;
  asks?: StepAsks;
  /** false: send the call as written (no tool-name or argument check, no typing). */
  validate?: false;
}

/** How steps reach servers and tools (the command's side: connections, holders, restarts). */
export interface StepRunner {
  run(request: StepRequest, signal: AbortSignal): Promise<StepOutcome>;
}

export interface TestResult {
  file: string;
  name: string;
  place: FilePlace;
  /** interrupted: Ctrl-C came while the test ran (its step's answer never counted). */
  status: 'pass' | 'fail' | 'skip' | 'interrupted';
  ms: number;
  failures: MatchFailure[];
  request: StepRequest;
  skipReason?: string;
  /** A snapshot this run wrote (a new one, or --update). */
  wroteSnapshot?: boolean;
}

export interface SuiteOptions {
  /** Substring of the test name, or /regex/. */
  filter?: string;
  bail: boolean;
  /** Files of different servers run at once, at most this many. */
  jobs: number;
  shard?: { index: number; count: number };
  /** The folder test file paths are taken relative to for --shard's split (the command's cwd). */
  root?: string;
  snapshotMode: 'update' | 'ci' | 'write';
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Each result as it is known, for the live output. */
  onResult?: (result: TestResult) => void;
}

/**
 * Runs test files: the tests of one file in order (each may use what an earlier one saved), files
 * of different servers side by side (`jobs`). Setup steps run before a file's tests (a failed one
 * fails them all), teardown steps after, whatever happened. Returns every selected test's result,
 * in file order; interrupted (signal), the ones that ran.
 */
export async function runTestSuite(files: TestFile[], runner: StepRunner, suiteOptions: SuiteOptions): Promise<TestResult[]> {
  const selected = selectTests(files, suiteOptions);
  // Started beside the servers, so a short step timeout is not spent starting it.
  if (files.some((file) => [...file.setup, ...file.tests].some((step) => /"(matches|pattern)"/.test(JSON.stringify(step.expect))))) warmRegexWorker();
  const byFile = new Map<TestFile, TestResult[]>();
  // The whole environment's secrets, not only the file's allowed ones: a server may print its own.
  const secretsOfEnvironment = environmentSecrets(suiteOptions.env);
  let bailed = false;
  const runFile = async (file: TestFile) => {
    // `${NAME}` reads only the variables the file's env: list or --env allow (file.env), never the rest.
    const options: SuiteOptions = { ...suiteOptions, env: file.env ?? {} };
    const chosen = selected.get(file)!;
    const results: TestResult[] = [];
    byFile.set(file, results);
    if (chosen.length === 0) return;
    const saved = new Map<string, unknown>();
    const snapshots = new SnapshotStore(file.path, options.snapshotMode, secretsOfEnvironment);
    // How each step of this run ended, for a ${NAME} whose saving step gave it no value (missingValue).
    const ended = new Map<TestStep, TestResult['status']>();
    const report = (result: TestResult) => {
      const step = file.tests.find((test) => test.name === result.name);
      if (step) ended.set(step, result.status);
      results.push(result);
      options.onResult?.(result);
      if (result.status === 'fail' && options.bail) bailed = true;
    };
    let setupFailure: string | undefined;
    for (const step of file.setup) {
      if (options.signal.aborted) break;
      const outcome = await runStep(step, runner, saved, options);
      const failures = matchExpectations(step.expect, outcome.outcome, regexLimitOf(step));
      if (failures.length > 0) {
        setupFailure = `setup step '${step.name}' (line ${step.place.line}) failed: ${failures[0]!.message}`;
        break;
      }
      saveValues(step, outcome.outcome, saved);
      ended.set(step, 'pass');
    }
    for (const { test, skipReason } of chosen) {
      if (options.signal.aborted) break;
      const request = requestOf(test, saved, options.env);
      if (skipReason || bailed) {
        report({ file: file.path, name: test.name, place: test.place, status: 'skip', ms: 0, failures: [], request, skipReason: skipReason ?? 'not run: an earlier test failed (--bail)' });
        continue;
      }
      // A test that fails before its step is sent: its setup failed, or a value it uses was never saved.
      const failedUnsent = (failure: MatchFailure) => report({ file: file.path, name: test.name, place: test.place, status: 'fail', ms: 0, failures: [failure], request });
      if (setupFailure) {
        failedUnsent({ matcher: 'setup', expected: 'setup passes', actual: setupFailure, message: setupFailure });
        continue;
      }
      const missing = missingValue(file, test, saved, ended, options.env);
      if (missing) {
        failedUnsent({ matcher: 'args', expected: 'a saved value', actual: undefined, message: missing });
        continue;
      }
      const began = performance.now();
      const { outcome } = await runStep(test, runner, saved, options);
      // A local tool answers in microtasks: without a turn of the event loop here, a SIGTERM (or Ctrl-C)
      // waits for the whole file, whose matches: may each take up to their time limit.
      await yieldToEventLoop();
      if (options.signal.aborted) {
        // Shown and reported (summary, --json, JUnit) as interrupted, not left out as if it never began.
        report({ file: file.path, name: test.name, place: test.place, status: 'interrupted', ms: performance.now() - began, failures: [], request });
        break;
      }
      const failures = matchExpectations(test.expect, outcome, regexLimitOf(test));
      let wroteSnapshot = false;
      if (test.expect.snapshot && !(failures.length > 0 && failures[0]!.matcher === 'error' && !test.expect.error)) {
        const checked = snapshots.check(test.name, normalizeForSnapshot(snapshotOf(outcome), test.ignore));
        if (checked.missing) failures.push({ matcher: 'snapshot', expected: 'a stored snapshot', actual: undefined, message: checked.missing });
        for (const difference of checked.differences)
          failures.push({ matcher: 'snapshot', path: difference.path, expected: difference.recorded, actual: difference.now, message: `differs from the snapshot at ${difference.path}` });
        wroteSnapshot = checked.wrote === true;
      }
      if (failures.length === 0) saveValues(test, outcome, saved);
      report({
        file: file.path,
        name: test.name,
        place: test.place,
        status: failures.length === 0 ? 'pass' : 'fail',
        ms: outcome.latencyMs,
        failures,
        request,
        ...(wroteSnapshot ? { wroteSnapshot } : {}),
      });
    }
    // Teardown runs even after a failure or Ctrl-C (a fresh signal: the run's own may be aborted), then the snapshots are written.
    for (const step of file.teardown) await runStep(step, runner, saved, { ...options, signal: new AbortController().signal }).catch(() => {});
    snapshots.save();
  };
  // Files of one server run one after another (a server's state carries from file to file as it
  // would in a session); different servers at once, up to `jobs`.
  const groups = new Map<string, TestFile[]>();
  for (const file of files) {
    const key = groupOf(file);
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  const queue = [...groups.values()];
  const workers = Array.from({ length: Math.max(1, Math.min(suiteOptions.jobs, queue.length)) }, async () => {
    for (let group = queue.shift(); group; group = queue.shift()) for (const file of group) if (!suiteOptions.signal.aborted) await runFile(file);
  });
  await Promise.all(workers);
  return files.flatMap((file) => byFile.get(file) ?? []);
}

/** Files of one server run one after another; this is the server (or '' for local tools) a file is grouped by. */
function groupOf(file: TestFile): string {
  return file.server ?? file.tests[0]?.server ?? '';
}

/** Do these files run side by side (their result lines interleave)? Files of two servers or more, and jobs over 1. */
export function runSideBySide(files: TestFile[], jobs: number): boolean {
  return jobs > 1 && new Set(files.map(groupOf)).size > 1;
}

async function runStep(step: TestStep, runner: StepRunner, saved: Map<string, unknown>, options: SuiteOptions): Promise<{ outcome: StepOutcome }> {
  const request = requestOf(step, saved, options.env);
  try {
    return { outcome: await runner.run(request, options.signal) };
  } catch (error) {
    return { outcome: { error: { message: (error as Error).message }, latencyMs: 0, progress: [] } };
  }
}

/** A step's `timeout` holds for its `matches:` too, when shorter than their own limit. */
function regexLimitOf(step: TestStep): number {
  return Math.min(REGEX_TIME_LIMIT_MS, step.timeoutMs ?? Infinity);
}

function requestOf(step: TestStep, saved: Map<string, unknown>, env: NodeJS.ProcessEnv): StepRequest {
  return {
    action: step.action,
    ...(step.server !== undefined ? { server: step.server } : {}),
    args: expandReferences(step.args, saved, env) as Record<string, unknown>,
    ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}),
    ...(step.expect.latencyMs !== undefined ? { latencyMaxMs: step.expect.latencyMs.max } : {}),
    ...(step.asks ? { asks: step.asks } : {}),
    ...(step.validate === false ? { validate: false as const } : {}),
  };
}

/**
 * Why a `${NAME}` in the test's arguments has no value, or undefined when every one has: the step
 * that saves it did not run (--filter, --shard, only:), was skipped, failed, or its JSONPath selected
 * nothing. Sent, it would be null (or "undefined" in a text); the test fails saying so instead.
 */
function missingValue(file: TestFile, test: TestStep, saved: Map<string, unknown>, ended: Map<TestStep, TestResult['status']>, env: NodeJS.ProcessEnv): string | undefined {
  const names = [...new Set(referencesIn(JSON.stringify(test.args)))];
  const name = names.find((each) => !saved.has(each) && env[each] === undefined);
  if (name === undefined) return undefined;
  const steps = [...file.setup, ...file.tests];
  const saver = steps.slice(0, steps.indexOf(test)).findLast((step) => Object.hasOwn(step.save, name));
  if (!saver) return `\${${name}} has no value: no earlier step saves it and the environment does not set it`;
  const status = ended.get(saver);
  const why =
    status === 'fail'
      ? 'failed'
      : status === 'skip'
        ? 'was skipped'
        : status === 'pass'
          ? `passed, but ${saver.save[name]} selected nothing in its result`
          : 'did not run (--filter or only: left it out)';
  return `\${${name}} has no value: '${saver.name}' (line ${saver.place.line}), which saves it, ${why}; the step was not sent`;
}

function saveValues(step: TestStep, outcome: StepOutcome, saved: Map<string, unknown>): void {
  for (const [name, path] of Object.entries(step.save)) {
    const nodes = selectNodes(path, outcome.result ?? null);
    if (nodes.length > 0) saved.set(name, nodes.length === 1 ? nodes[0]!.value : nodes.map((node) => node.value));
  }
}

/** What a snapshot keeps of an outcome: the result, or the error a step expected. */
function snapshotOf(outcome: StepOutcome): unknown {
  if (outcome.result !== undefined) return outcome.result;
  return { error: { message: outcome.error?.message ?? '', ...(outcome.error?.code !== undefined ? { code: outcome.error.code } : {}) } };
}

/**
 * The tests this run takes, per file, each with why it is skipped (if it is): `skip:`, `only:`
 * elsewhere, or not matching --filter (those are left out, not reported). `--shard I/N` splits the
 * suite by file, never inside one (a file's tests run in order and share saved values): the files
 * sorted by the SHA-1 of their path from `root`, cut into N runs of consecutive files whose sizes
 * differ by one at most, as vitest's --shard does (vitest 4.1, BaseSequencer.shard and
 * calculateShardRange in node_modules/vitest/dist/chunks/coverage.*.js). The parts are the whole
 * suite, none twice, the same on every machine; a shard may hold no file when N is over the files.
 */
export function selectTests(files: TestFile[], options: Pick<SuiteOptions, 'filter' | 'shard' | 'root'>): Map<TestFile, Array<{ test: TestStep; skipReason?: string }>> {
  const anyOnly = files.some((file) => file.tests.some((test) => test.only));
  const matchesFilter = filterFunction(options.filter);
  const inShard = options.shard ? shardFiles(files, options.shard, options.root ?? '') : undefined;
  const selection = new Map<TestFile, Array<{ test: TestStep; skipReason?: string }>>();
  for (const file of files) {
    const chosen =
      inShard && !inShard.has(file)
        ? []
        : file.tests
            .filter((test) => matchesFilter(test.name))
            .map((test) => ({
              test,
              ...(test.skip ? { skipReason: test.skip === true ? 'skip: true' : test.skip } : anyOnly && !test.only ? { skipReason: 'not marked only: (another test is)' } : {}),
            }));
    selection.set(file, chosen);
  }
  return selection;
}

/** The files of part `index` of `count`: see selectTests. */
export function shardFiles(files: TestFile[], { index, count }: { index: number; count: number }, root: string): Set<TestFile> {
  const base = Math.floor(files.length / count);
  const larger = files.length % count;
  const start = index <= larger ? (base + 1) * (index - 1) : larger * (base + 1) + (index - larger - 1) * base;
  const size = index <= larger ? base + 1 : base;
  const keyed = files.map((file) => ({ file, hash: createHash('sha1').update(relative(root, file.path).split(sep).join('/')).digest('hex') }));
  keyed.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  return new Set(keyed.slice(start, start + size).map(({ file }) => file));
}

function filterFunction(filter: string | undefined): (name: string) => boolean {
  if (!filter) return () => true;
  const regex = /^\/(.+)\/([a-z]*)$/.exec(filter);
  if (regex) {
    const pattern = new RegExp(regex[1]!, regex[2]);
    return (name) => pattern.test(name);
  }
  return (name) => name.includes(filter);
}
