import type { FilePlace } from '../testing/test-file-types.js';

/**
 * An eval file (`*.eval.yaml|yml|json`): a model is given each case's prompt and the tools, and the
 * calls it makes are judged. Schema: schemas/toolrun-eval.schema.json.
 */
export interface EvalFile {
  path: string;
  /** The MCP server whose tools the model gets (a configured server, or a `mcp mock`); absent: the local tools. */
  server?: string;
  cases: EvalCase[];
}

export interface EvalCase {
  name: string;
  place: FilePlace;
  prompt: string;
  /** How many times the case runs per model (its pass rate is over these). */
  runs: number;
  expect: EvalExpectation;
}

export interface ExpectedCall {
  tool: string;
  /** Argument name → a value (equals) or a test matcher ({contains, matches, type, …}); an omitted argument is not checked. */
  args?: Record<string, unknown>;
}

export interface EvalExpectation {
  calls: ExpectedCall[];
  /** any: each expected call is made (others may be too) · exact: the calls made are these, in this order. */
  order: 'any' | 'exact';
  /** Tools the model must not call. */
  forbid: string[];
  /** Model requests allowed before it must answer. */
  maxTurns: number;
  /** The final answer's text: a string it contains, or a test matcher. */
  answer?: unknown;
}
