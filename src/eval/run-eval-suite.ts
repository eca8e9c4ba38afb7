import type { LanguageModel } from 'ai';
import type { ToolExecutor } from '../executor/tool-executor.js';
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
  signal: AbortSignal;
  /** The cassette folder of a file (__cassettes__ beside it). */
  cassetteFolder: (file: EvalFile) => string;
  onResult?: (result: EvalCaseResult) => void;
  /** Record mode: the cassettes a recording removed because it no longer uses them. */
  onPruned?: (paths: string[]) => void;
}

/**
 * Every case of every file against every model, `runs` times each, one after another (a model's rate
 * limits, and cassettes recorded in order). A recording that ran a whole file then removes, per
 * model, the cassettes of that file it no longer uses (src/eval/cassette/cassette-prune.ts).
 */
export async function runEvalSuite(files: EvalFile[], options: EvalSuiteOptions): Promise<EvalCaseResult[]> {
  const results: EvalCaseResult[] = [];
  for (const file of files) {
    const tools = await options.toolsFor(file);
    const folder = options.cassetteFolder(file);
    // Per model: the keys each case wrote, and the cases whose recording failed (their cassettes stay).
    const used = options.models.map(() => new Map<string, Set<string>>());
    const failed = options.models.map(() => new Set<string>());
    for (const evalCase of file.cases) {
      for (const [index, { label, profile, modelFor }] of options.models.entries()) {
        if (options.signal.aborted) return results;
        const written = new Set<string>();
        used[index]!.set(caseSlug(evalCase.name), written);
        const runs: EvalRun[] = [];
        for (let run = 0; run < evalCase.runs && !options.signal.aborted; run++) {
          // A model per run: each run's requests go to cassettes of its own (ModelFetchOptions.run).
          const model = await modelFor({ mode: options.mode, folder, caseName: evalCase.name, run, profile, written });
          runs.push(await runEvalCase(evalCase, { model, tools, executor: options.executor, signal: options.signal }));
        }
        if (runs.length < evalCase.runs || runs.some((each) => each.error !== undefined)) failed[index]!.add(caseSlug(evalCase.name));
        const result = scoreCase(file.path, evalCase, label, runs, options.minPassRate);
        results.push(result);
        options.onResult?.(result);
      }
    }
    if (options.mode === 'record' && !options.signal.aborted)
      for (const [index, { profile }] of options.models.entries()) {
        const removed = pruneCassettes(folder, profile, used[index]!, failed[index]!);
        if (removed.length > 0) options.onPruned?.(removed);
      }
  }
  return results;
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
