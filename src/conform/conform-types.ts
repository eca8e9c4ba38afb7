/**
 * The shapes of `toolrun mcp conform` (SPEC §16): a profile of checks run on one server, each with
 * an id, the spec section it comes from, a verdict and the evidence behind it. The engine returns a
 * ConformReport; the table, --json, --junit, GitHub annotations and --html all read only this.
 */

export type Verdict = 'pass' | 'fail' | 'warn' | 'skip';

/** What a verdict rests on: the frame, the stdout line, the field path, in words a bug report can quote. */
export interface CheckEvidence {
  /** One line saying what was seen. */
  detail: string;
  /** The JSON-RPC message concerned (as received or sent; long strings are cut by the engine). */
  frame?: unknown;
  /** Which way the frame went: 'sent' by toolrun, 'received' from the server. */
  direction?: 'sent' | 'received';
  /** The 1-based stdout line number (stdio) concerned. */
  line?: number;
  /** A JSON path inside the frame, e.g. `result.tools[3].inputSchema`. */
  path?: string;
}

export interface CheckResult {
  /** Stable across toolrun versions for one profile version, e.g. `tools.input-schema`. */
  id: string;
  /** One short sentence naming what is checked. */
  title: string;
  /** The spec page and anchor it comes from, e.g. `basic/lifecycle#version-negotiation`. */
  section: string;
  verdict: Verdict;
  /** One line: why this verdict (for a skip, why it did not run). */
  message: string;
  evidence: CheckEvidence[];
  durationMs: number;
}

export interface ConformReport {
  /** The profile run, e.g. { name: 'toolrun', version: 1 }. */
  profile: { name: string; version: number };
  server: string;
  transport: 'stdio' | 'http' | 'sse';
  /** The revision negotiated on the main connection; undefined when the server was unreachable. */
  protocolVersion?: string;
  /** The spec URL base of that revision, for links: https://modelcontextprotocol.io/specification/REV/ */
  specBase?: string;
  /** Which tools were called and how their arguments were found. */
  calls: { tool: string; arguments: Record<string, unknown>; generated: boolean; skipped?: string }[];
  checks: CheckResult[];
  summary: Record<Verdict, number>;
  durationMs: number;
  /** When the server could not be reached at all (exit 4), why. */
  unreachable?: string;
}

/** The run's exit code: 4 unreachable, 1 a check failed, 0 otherwise (warnings do not fail a run). */
export function conformExitCode(report: ConformReport): 0 | 1 | 4 {
  if (report.unreachable) return 4;
  return report.summary.fail > 0 ? 1 : 0;
}
