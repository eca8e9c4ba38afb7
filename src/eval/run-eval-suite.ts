import type { LanguageModel } from 'ai';
import type { ToolExecutor } from '../executor/tool-executor.js';
import type { EvalCase, EvalFile } from './eval-file-types.js';
import type { EvalCaseResult, EvalRun } from './eval-result.js';
import type { ModelFetchOptions } from './model-fetch.js';
import type { PresentedTool } from './present-tools.js';
import { runEvalCase } from './run-eval-case.js';
import { wilsonInterval } from './wilson-interval.js';

export interface EvalSuiteOptions {
  /** Model labels (PROVIDER:MODEL), each with how to build it for one case's cassette. */
  models: Array<{ label: string; modelFor: (fetchOptions: ModelFetchOptions) => Promise<LanguageModel> }>;
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
}

/** Every case of every file against every model, `runs` times each, one after another (a model's rate limits, and cassettes recorded in order). */
export async function runEvalSuite(files: EvalFile[], options: EvalSuiteOptions): Promise<EvalCaseResult[]> {
  const results: EvalCaseResult[] = [];
  for (const file of files) {
    const tools = await options.toolsFor(file);
    for (const evalCase of file.cases) {
      for (const { label, modelFor } of options.models) {
        if (options.signal.aborted) return results;
        const runs: EvalRun[] = [];
        for (let run = 0; run < evalCase.runs && !options.signal.aborted; run++) {
          // A model per run: each run's requests go to cassettes of its own (ModelFetchOptions.run).
          const model = await modelFor({ mode: options.mode, folder: options.cassetteFolder(file), caseName: evalCase.name, run });
          runs.push(await runEvalCase(evalCase, { model, tools, executor: options.executor, signal: options.signal }));
        }
        const result = scoreCase(file.path, evalCase, label, runs, options.minPassRate);
        results.push(result);
        options.onResult?.(result);
      }
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
