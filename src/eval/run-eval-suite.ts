import type { LanguageModel } from 'ai';
import type { ToolExecutor } from '../executor/tool-executor.js';
import { mapWithLimit } from '../process/parallel-starts.js';
import { caseSlug } from './cassette/cassette-files.js';
import { pruneCassettes } from './cassette/cassette-prune.js';
import type { EvalCase, EvalFile } from './eval-file-types.js';
import type { EvalCaseResult, EvalRun } from './eval-result.js';
import type { ModelFetchOptions } from './model-fetch.js';
import type { PresentedTool } from './present-tools.js';
import { runEvalCase } from './run-eval-case.js';
import { wilsonInterval } from './wilson-interval.js';

export interface EvalSuiteOptions {
  /**
   * Model labels (PROVIDER:MODEL), each with how to build it for one case's cassette, and the profile
   * its recordings are written under (the label, and the host the tools are presented as).
   */
  models: Array<{ label: string; profile: string; modelFor: (fetchOptions: ModelFetchOptions) => Promise<LanguageModel> }>;
  /** The tools a file's cases are given, as the host presents them. */
  toolsFor: (file: EvalFile) => Promise<PresentedTool[]>;
  executor: ToolExecutor;
  mode: ModelFetchOptions['mode'];
  /** A case meets the bar when its pass rate is at least this (0..1). */
  minPassRate: number;
  /** Cases × models asked at once, at most (each case's runs go one after another); 1 keeps a stateful server's calls in one order. */
  jobs: number;
  signal: AbortSignal;
  /** The cassette folder of a file (__cassettes__/<file> beside it). */
  cassetteFolder: (file: EvalFile) => string;
  /** Each result as soon as it and every one before it (file, case, model order) are in. */
  onResult?: (result: EvalCaseResult) => void;
  /** Record mode: the cassettes a recording removed because it no longer uses them. */
  onPruned?: (paths: string[]) => void;
}

/** One case against one model: what a job runs. */
interface EvalUnit {
  index: number;
  file: EvalFile;
  evalCase: EvalCase;
  modelIndex: number;
}

/** What a file's recording wrote, per model: the keys of each case, the cases that failed, and the units still running. */
interface FileRecording {
  used: Array<Map<string, Set<string>>>;
  failed: Array<Set<string>>;
  remaining: number;
}

/**
 * Every case of every file against every model, `runs` times each: up to `jobs` case × model pairs
 * at once (1 by default: tools that keep state, a list or a database, would see the calls of pairs
 * side by side interleave differently each run, and a replay's requests would then differ from the
 * recording's). A pair's runs stay in order, so its cassettes are recorded run by run. Results come
 * in file, case, model order whatever finished first. A recording that ran a whole file then
 * removes, per model, the cassettes of that file it no longer uses (src/eval/cassette/cassette-prune.ts).
 */
export async function runEvalSuite(files: EvalFile[], options: EvalSuiteOptions): Promise<EvalCaseResult[]> {
  const units: EvalUnit[] = [];
  for (const file of files) for (const evalCase of file.cases) for (const modelIndex of options.models.keys()) units.push({ index: units.length, file, evalCase, modelIndex });
  const toolsOf = new Map<EvalFile, Promise<PresentedTool[]>>();
  const recordings = new Map<EvalFile, FileRecording>(
    files.map((file) => [file, { used: options.models.map(() => new Map()), failed: options.models.map(() => new Set()), remaining: file.cases.length * options.models.length }]),
  );
  const results: Array<EvalCaseResult | undefined> = new Array(units.length);
  let reported = 0;
  // The first error (a server's tools, a cassette that cannot be written) stops every job: none goes on
  // asking models or writing cassettes for a run that has already failed; it is thrown once all stop.
  let failure: { error: unknown } | undefined;
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  await mapWithLimit(units, Math.max(1, options.jobs), async (unit) => {
    if (signal.aborted) return;
    try {
      await runUnit(unit);
    } catch (error) {
      failure ??= { error };
      stop.abort();
    }
  });
  if (failure) throw failure.error;
  return results.filter((result): result is EvalCaseResult => result !== undefined);

  async function runUnit({ index, file, evalCase, modelIndex }: EvalUnit): Promise<void> {
    if (!toolsOf.has(file)) toolsOf.set(file, options.toolsFor(file));
    const tools = await toolsOf.get(file)!;
    const { label, profile, modelFor } = options.models[modelIndex]!;
    const folder = options.cassetteFolder(file);
    const recording = recordings.get(file)!;
    const written = new Set<string>();
    recording.used[modelIndex]!.set(caseSlug(evalCase.name), written);
    const runs: EvalRun[] = [];
    for (let run = 0; run < evalCase.runs && !signal.aborted; run++) {
      // A model per run: each run's requests go to cassettes of its own (ModelFetchOptions.run).
      const model = await modelFor({ mode: options.mode, folder, caseName: evalCase.name, run, profile, written });
      runs.push(await runEvalCase(evalCase, { model, tools, executor: options.executor, signal }));
    }
    if (runs.length < evalCase.runs || runs.some((each) => each.error !== undefined)) recording.failed[modelIndex]!.add(caseSlug(evalCase.name));
    results[index] = scoreCase(file.path, evalCase, label, runs, options.minPassRate);
    for (; reported < units.length && results[reported]; reported++) options.onResult?.(results[reported]!);
    if (--recording.remaining === 0 && options.mode === 'record' && !signal.aborted) pruneFile(folder, recording, options);
  }
}

function pruneFile(folder: string, recording: FileRecording, options: EvalSuiteOptions): void {
  for (const [index, { profile }] of options.models.entries()) {
    const removed = pruneCassettes(folder, profile, recording.used[index]!, recording.failed[index]!);
    if (removed.length > 0) options.onPruned?.(removed);
  }
}

export function scoreCase(file: string, evalCase: Pick<EvalCase, 'name' | 'place' | 'prompt'>, model: string, runs: EvalRun[], minPassRate: number): EvalCaseResult {
  const passed = runs.filter((run) => run.pass).length;
  const passRate = runs.length === 0 ? 0 : passed / runs.length;
  return {
    file,
    name: evalCase.name,
    place: evalCase.place,
    prompt: evalCase.prompt,
    model,
    runs,
    passed,
    passRate,
    interval: wilsonInterval(passed, runs.length),
    met: runs.length > 0 && passRate >= minPassRate,
    inputTokens: runs.reduce((total, run) => total + run.inputTokens, 0),
    outputTokens: runs.reduce((total, run) => total + run.outputTokens, 0),
    latencyMs: runs.length === 0 ? 0 : runs.reduce((total, run) => total + run.latencyMs, 0) / runs.length,
  };
}
