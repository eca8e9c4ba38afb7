import { expandReferences } from './expand-references.js';
import { selectNodes } from './json-path.js';
import { matchExpectations, type MatchFailure, type StepOutcome } from './match-expectations.js';
import { normalizeForSnapshot, SnapshotStore } from './snapshots.js';
import type { FilePlace, StepAction, StepAsks, TestFile, TestStep } from './test-file-types.js';

/** A step ready to run: its `${…}` expanded. */
export interface StepRequest {
  action: StepAction;
  server?: string;
  args: Record<string, unknown>;
  timeoutMs?: number;
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
  status: 'pass' | 'fail' | 'skip';
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
export async function runTestSuite(files: TestFile[], runner: StepRunner, options: SuiteOptions): Promise<TestResult[]> {
  const selected = selectTests(files, options);
  const byFile = new Map<TestFile, TestResult[]>();
  let bailed = false;
  const runFile = async (file: TestFile) => {
    const chosen = selected.get(file)!;
    const results: TestResult[] = [];
    byFile.set(file, results);
    if (chosen.length === 0) return;
    const saved = new Map<string, unknown>();
    const snapshots = new SnapshotStore(file.path, options.snapshotMode);
    const report = (result: TestResult) => {
      results.push(result);
      options.onResult?.(result);
      if (result.status === 'fail' && options.bail) bailed = true;
    };
    let setupFailure: string | undefined;
    for (const step of file.setup) {
      if (options.signal.aborted) break;
      const outcome = await runStep(step, runner, saved, options);
      const failures = matchExpectations(step.expect, outcome.outcome);
      if (failures.length > 0) {
        setupFailure = `setup step '${step.name}' (line ${step.place.line}) failed: ${failures[0]!.message}`;
        break;
      }
      saveValues(step, outcome.outcome, saved);
    }
    for (const { test, skipReason } of chosen) {
      if (options.signal.aborted) break;
      const request = requestOf(test, saved, options.env);
      if (skipReason || bailed) {
        report({ file: file.path, name: test.name, place: test.place, status: 'skip', ms: 0, failures: [], request, skipReason: skipReason ?? 'not run: an earlier test failed (--bail)' });
        continue;
      }
      if (setupFailure) {
        report({
          file: file.path,
          name: test.name,
          place: test.place,
          status: 'fail',
          ms: 0,
          failures: [{ matcher: 'setup', expected: 'setup passes', actual: setupFailure, message: setupFailure }],
          request,
        });
        continue;
      }
      const { outcome } = await runStep(test, runner, saved, options);
      if (options.signal.aborted) break;
      const failures = matchExpectations(test.expect, outcome);
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
    const key = file.server ?? file.tests[0]?.server ?? '';
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  const queue = [...groups.values()];
  const workers = Array.from({ length: Math.max(1, Math.min(options.jobs, queue.length)) }, async () => {
    for (let group = queue.shift(); group; group = queue.shift()) for (const file of group) if (!options.signal.aborted) await runFile(file);
  });
  await Promise.all(workers);
  return files.flatMap((file) => byFile.get(file) ?? []);
}

async function runStep(step: TestStep, runner: StepRunner, saved: Map<string, unknown>, options: SuiteOptions): Promise<{ outcome: StepOutcome }> {
  const request = requestOf(step, saved, options.env);
  try {
    return { outcome: await runner.run(request, options.signal) };
  } catch (error) {
    return { outcome: { error: { message: (error as Error).message }, latencyMs: 0, progress: [] } };
  }
}

function requestOf(step: TestStep, saved: Map<string, unknown>, env: NodeJS.ProcessEnv): StepRequest {
  return {
    action: step.action,
    ...(step.server !== undefined ? { server: step.server } : {}),
    args: expandReferences(step.args, saved, env) as Record<string, unknown>,
    ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}),
    ...(step.asks ? { asks: step.asks } : {}),
    ...(step.validate === false ? { validate: false as const } : {}),
  };
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
 * suite into N parts that together are the whole, none twice, the same on every machine: a test
 * and the tests using what it saves stay in one part (they cannot run apart).
 */
export function selectTests(files: TestFile[], options: Pick<SuiteOptions, 'filter' | 'shard'>): Map<TestFile, Array<{ test: TestStep; skipReason?: string }>> {
  const anyOnly = files.some((file) => file.tests.some((test) => test.only));
  const matchesFilter = filterFunction(options.filter);
  const selection = new Map<TestFile, Array<{ test: TestStep; skipReason?: string }>>();
  let unitNumber = 0;
  for (const file of files) {
    // Units: a test joins the unit of the test that saved a name it uses.
    const unitOf = new Map<TestStep, number>();
    const savedBy = new Map<string, number>();
    for (const test of file.tests) {
      const uses = JSON.stringify(test.args).match(/\$\{([A-Za-z_][\w-]*)\}/g) ?? [];
      const joined = uses.map((use) => savedBy.get(use.slice(2, -1))).find((unit) => unit !== undefined);
      const unit = joined ?? unitNumber++;
      unitOf.set(test, unit);
      for (const name of Object.keys(test.save)) savedBy.set(name, unit);
    }
    const chosen = file.tests
      .filter((test) => matchesFilter(test.name))
      .filter((test) => !options.shard || unitOf.get(test)! % options.shard.count === options.shard.index - 1)
      .map((test) => ({
        test,
        ...(test.skip ? { skipReason: test.skip === true ? 'skip: true' : test.skip } : anyOnly && !test.only ? { skipReason: 'not marked only: (another test is)' } : {}),
      }));
    selection.set(file, chosen);
  }
  return selection;
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
