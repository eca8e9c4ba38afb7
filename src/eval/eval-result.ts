import type { FilePlace } from '../testing/test-file-types.js';

/** One tool call the model made: the name it called, the real tool that ran (if any), what it got back. */
export interface EvalCall {
  /** The name the model called (as the host presented it). */
  calledAs: string;
  /** The real tool's name; absent when the name matched no presented tool. */
  tool?: string;
  args: unknown;
  /** The text the model was given back. */
  output: string;
  /** The call failed (bad arguments, a tool error, an unknown name). */
  failed: boolean;
}

/** One model request and what came of it. */
export interface EvalTurn {
  text: string;
  calls: EvalCall[];
  finishReason: string;
  inputTokens: number;
  outputTokens: number;
}

/** One run of a case against one model. */
export interface EvalRun {
  pass: boolean;
  /** Why it failed, one line each (empty when it passed). */
  failures: string[];
  turns: EvalTurn[];
  answer: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** What the provider said it ignored or changed (a setting it does not take), as the AI SDK reports it. */
  warnings?: string[];
  /** The model could not be asked (network, a cassette miss): the run counts as failed. */
  error?: string;
  /** The error was the model's endpoint unreachable (exit 4). */
  unreachable?: boolean;
}

/** A case against one model: its runs and their score. Success and failure carry the same fields. */
export interface EvalCaseResult {
  file: string;
  name: string;
  place: FilePlace;
  /** What the model was asked. */
  prompt: string;
  model: string;
  runs: EvalRun[];
  passed: number;
  passRate: number;
  /** The pass rate's 95% Wilson interval. */
  interval: { low: number; high: number };
  /** Did the pass rate meet --min-pass-rate (default 1: every run passes). */
  met: boolean;
  /** Sums over the runs. */
  inputTokens: number;
  outputTokens: number;
  /** Mean wall time of one run. */
  latencyMs: number;
}
