import type { ServerSpec } from '../../config/resolve-server.js';
import type { AttemptPhase } from './classify-attempt.js';
import type { AttemptError } from './connect-once.js';
import type { ExitInfo } from '../../process/exit-info.js';

/** Why a server could not be connected, in words a person can act on (exec's box, doctor, mcp list). */
export interface ConnectFailure {
  server: string;
  /** One line: the cause ("the server could not connect to 127.0.0.1:6379 (connection refused…)"). */
  reason: string;
  /** The cause table's id (`npx-needs-yes`, `connection-refused`, `timeout`, …): stable, for scripts. */
  causeId: string;
  /** What the cause names (the variable a server misses), when it names one. */
  causeSubject?: string;
  phase: AttemptPhase;
  /** Worth another attempt? A missing command, a missing package or a refused version is not. */
  retryable: boolean;
  attempts: number;
  exit?: ExitInfo;
  /** The server's stderr, last lines (stdio servers), each shortened for display. */
  stderrLines: string[];
  /** The error-like lines it wrote before those (distinct, bounded): a cause written before the chatter is still shown. */
  stderrErrorLines: string[];
  /** More distinct error-like lines came than are kept (stderr-log.ts ERROR_LINES_KEPT). */
  stderrErrorLinesCapped: boolean;
  /** How many lines it wrote to stderr in all (the last attempt), and how many of them look like errors. */
  stderrLineCount: number;
  stderrErrorLikeCount: number;
  /** Concrete things to check: the config's hint, the cause's fix, then other causes stderr named. */
  checks: string[];
  /** stdout lines that were not JSON-RPC, as seen during the attempt. */
  pollution: string[];
  /** Never started: its host would not start it, or only the host can (`--host`); `attempts` is 0. */
  notStarted?: boolean;
}

/** The failure of a server toolrun did not start because of its refusal (config's ServerRefusal). */
export function notStartedFailure(server: string, refusal: { kind: string; reason: string; fix: string }): ConnectFailure {
  return {
    server,
    reason: refusal.reason,
    causeId: refusal.kind,
    phase: 'spawn',
    retryable: false,
    attempts: 0,
    stderrLines: [],
    stderrErrorLines: [],
    stderrErrorLinesCapped: false,
    stderrLineCount: 0,
    stderrErrorLikeCount: 0,
    checks: [refusal.fix],
    pollution: [],
    notStarted: true,
  };
}

/** The failure report of a server whose last attempt failed with `error`. */
export function buildConnectFailure(spec: ServerSpec, error: AttemptError, attempts: number, pollution: string[]): ConnectFailure {
  const stderr = error.stdio?.stderr;
  const otherFixes = [...(stderr?.causes.values() ?? [])].filter((cause) => cause.id !== error.failureCause.id).map((cause) => cause.fix);
  const checks = [...(spec.hint ? [spec.hint] : []), error.failureCause.fix, ...otherFixes];
  if (pollution.length > 0) checks.push('the server writes non-JSON-RPC text to stdout (e.g. console.log): write logs to stderr (console.error)');
  return {
    server: spec.name,
    reason: error.failureCause.reason,
    causeId: error.failureCause.id,
    ...(error.failureCause.subject !== undefined && { causeSubject: error.failureCause.subject }),
    phase: error.phase,
    retryable: error.failureCause.retryable,
    attempts,
    exit: error.exit,
    stderrLines: stderr?.lastLines(20) ?? [],
    stderrErrorLines: stderr?.errorLinesBefore(20) ?? [],
    stderrErrorLinesCapped: stderr?.errorLinesCapped ?? false,
    stderrLineCount: stderr?.lineCount ?? 0,
    stderrErrorLikeCount: stderr?.errorLikeCount ?? 0,
    checks: [...new Set(checks)],
    pollution,
  };
}
