/**
 * Why a server failed: its stderr matched, line by line, against the cause table (cause-table.ts).
 * Each cause gives the reason (one line), the fix, whether another attempt could help, and whether
 * a server that says it will never answer initialize (so toolrun stops waiting).
 * Nothing here matches toolrun's own message texts: callers classify from fields, then word it.
 */

import { STDERR_RULES, type Cause, type CauseContext } from './cause-table.js';

export type { Cause, CauseContext } from './cause-table.js';

/** Lines longer than this are matched on their start only: a 50 MB stderr line must not cost a regex over it. */
const MATCHED_PREFIX = 2048;

/** The cause one stderr line names, if any (the first rule that matches wins). */
export function causeInStderrLine(line: string, context: CauseContext = {}): Cause | undefined {
  const text = line.length > MATCHED_PREFIX ? line.slice(0, MATCHED_PREFIX) : line;
  for (const rule of STDERR_RULES) {
    const match = text.match(rule.pattern);
    if (match) return { id: rule.id, reason: rule.reason(match, context), fix: rule.fix(match, context), retryable: rule.retryable, endsAttempt: rule.endsAttempt, subject: rule.subject?.(match) };
  }
  return undefined;
}

/** The causes named anywhere in `text` (several lines), in order, one per rule id. */
export function causesInText(text: string, context: CauseContext = {}): Cause[] {
  const found = new Map<string, Cause>();
  for (const line of text.split(/\r?\n/)) {
    const cause = causeInStderrLine(line, context);
    if (cause && !found.has(cause.id)) found.set(cause.id, cause);
  }
  return [...found.values()];
}

/** Among several causes, the one to give as the Reason: a permanent one before a transient one, then the first. */
export function mainCause(causes: Cause[]): Cause | undefined {
  return causes.find((cause) => !cause.retryable && cause.endsAttempt) ?? causes.find((cause) => cause.endsAttempt) ?? causes[0];
}
