import type { CheckOutcome } from '../check-types.js';
import type { CheckEvidence } from '../conform-types.js';
import type { ProbeAnswer, RecordedFrame } from '../probe-types.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';

/** A report keeps the first few pieces of evidence per check: enough to act on, small enough to read. */
const MAX_EVIDENCE = 20;

/**
 * What one check found, folded into a verdict: a broken MUST (or a broken wire contract) is a fail,
 * a broken SHOULD a warn, nothing found a pass. The message is the first finding's detail, so it
 * names what was wrong and where.
 */
export class Findings {
  private readonly fails: CheckEvidence[] = [];
  private readonly warns: CheckEvidence[] = [];

  fail(evidence: CheckEvidence): void {
    this.fails.push(evidence);
  }

  warn(evidence: CheckEvidence): void {
    this.warns.push(evidence);
  }

  get failed(): boolean {
    return this.fails.length > 0;
  }

  outcome(passMessage: string): CheckOutcome {
    const evidence = [...this.fails, ...this.warns].slice(0, MAX_EVIDENCE);
    if (this.fails.length > 0) return { verdict: 'fail', message: summarize(this.fails), evidence };
    if (this.warns.length > 0) return { verdict: 'warn', message: summarize(this.warns), evidence };
    return { verdict: 'pass', message: passMessage, evidence };
  }
}

function summarize(found: CheckEvidence[]): string {
  const first = found[0]?.detail ?? '';
  return found.length > 1 ? `${first} (and ${found.length - 1} more)` : first;
}

export const skip = (message: string): CheckOutcome => ({ verdict: 'skip', message });

/** Evidence quoting a frame: its message, its direction and (stdio) its stdout line. */
export function frameEvidence(frame: RecordedFrame | undefined, detail: string, path?: string): CheckEvidence {
  if (!frame) return { detail, ...(path ? { path } : {}) };
  return { detail, frame: frame.message, direction: frame.direction, ...(frame.line === undefined ? {} : { line: frame.line }), ...(path ? { path } : {}) };
}

/** How an answer that is not a result reads in a message: `error -32601 (Method not found)`, `no answer within 10000 ms`. */
export function describeAnswer(answer: ProbeAnswer): string {
  switch (answer.kind) {
    case 'result':
      return 'a result';
    case 'error':
      return `error ${answer.error.code} (${oneLine(answer.error.message)})`;
    case 'timeout':
      return `no answer within ${answer.afterMs} ms`;
    case 'closed':
      return `no answer: the connection closed (${oneLine(answer.reason)})`;
  }
}

function oneLine(text: string): string {
  return maskThenCut(String(text).replace(/\s+/g, ' ').trim(), 120, '...');
}

/** The frame of an answer, when it has one. */
export function answerFrame(answer: ProbeAnswer): RecordedFrame | undefined {
  return answer.kind === 'result' || answer.kind === 'error' ? answer.frame : undefined;
}

/**
 * Judges an answer that should be a JSON-RPC error with `expected` code. A result is `onResult`
 * (fail by default: the server claims success for something that cannot succeed); another code is
 * `onOtherCode` (warn by default: an error, but not the one the spec names); no answer is a fail.
 */
export function expectErrorCode(findings: Findings, answer: ProbeAnswer, expected: number, what: string, verdicts: { onResult?: 'fail' | 'warn'; onOtherCode?: 'fail' | 'warn' } = {}): void {
  if (answer.kind === 'error' && answer.error.code === expected) return;
  if (answer.kind === 'result') {
    findings[verdicts.onResult ?? 'fail'](frameEvidence(answer.frame, `${what} answered with a result instead of error ${expected}`, 'result'));
    return;
  }
  if (answer.kind === 'error') {
    findings[verdicts.onOtherCode ?? 'warn'](frameEvidence(answer.frame, `${what} answered ${describeAnswer(answer)} instead of error ${expected}`, 'error.code'));
    return;
  }
  findings.fail({ detail: `${what} got ${describeAnswer(answer)}` });
}
