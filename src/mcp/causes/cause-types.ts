/** The shapes of the cause table (cause-table.ts, service-causes.ts) and of what matching it gives (failure-causes.ts). */

/** A named cause: the Reason line, the fix, and the retry decision. */
export interface Cause {
  id: string;
  reason: string;
  fix: string;
  retryable: boolean;
  /** A server that wrote this will not answer: the attempt ends without waiting out the timeout. */
  endsAttempt: boolean;
  /** What the cause names, for callers that advise on it (the variable a server misses). */
  subject?: string;
}

/** What a rule may use besides the line: the package an `npx`-style runner was asked for. */
export interface CauseContext {
  packageName?: string;
}

export interface StderrRule {
  id: string;
  pattern: RegExp;
  retryable: boolean;
  endsAttempt: boolean;
  reason: (match: RegExpMatchArray, context: CauseContext) => string;
  fix: (match: RegExpMatchArray, context: CauseContext) => string;
  subject?: (match: RegExpMatchArray) => string | undefined;
}
