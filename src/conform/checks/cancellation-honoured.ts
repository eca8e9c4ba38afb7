import type { ConformCheck, PlannedCall } from '../check-types.js';
import type { RecordedFrame } from '../probe-types.js';
import { answerFrame, describeAnswer, Findings, frameEvidence, skip } from './findings.js';
import { callsToMake, madeCalls, noCallsReason, type MadeCall } from './made-calls.js';
import { isModern } from './server-facts.js';

/** How long a cancelled request is watched for an answer it should not get. */
export const CANCEL_GRACE_MS = 1000;

/** A call that answered this fast the first time is over before a cancel can reach it: not judged. */
export const TOO_FAST_TO_CANCEL_MS = 100;

/**
 * The slowest planned call (by its first run) is made again and cancelled at once: the server SHOULD NOT answer it (an
 * answer after the cancel is a warn: the spec allows the race), and MUST stay usable (ping, or
 * server/discover in 2026-07-28, answers afterwards). The 2025 family and 2026-07-28 stdio cancel with
 * notifications/cancelled; 2026-07-28 HTTP cancels by closing the response stream (channel.cancel).
 */
export const cancellationHonoured: ConformCheck = {
  id: 'cancellation.honoured',
  title: 'A cancelled request is not answered, and the server stays usable',
  section: 'basic/utilities/cancellation#behavior-requirements',
  modernSection: 'basic/patterns/cancellation#behavior-requirements',
  async run(context) {
    if (callsToMake(context).length === 0) return skip(`${noCallsReason(context)}; cancellation is tested on a planned call`);
    const { channel } = context;
    const { call, tookMs } = slowestCall(await madeCalls(context), context.channel.frames);
    const modern = isModern(context);
    if (modern && channel.transport !== 'stdio' && !channel.cancel) return skip('2026-07-28 over HTTP cancels a request by closing its response stream, which this connection cannot do');
    const graceMs = Math.min(CANCEL_GRACE_MS, context.timeoutMs);
    const started = channel.start('tools/call', { name: call.tool, arguments: call.arguments }, { progressToken: 'toolrun-cancel-1', timeoutMs: graceMs });
    const cancelledAt = channel.frames.length;
    const reason = 'toolrun conform: cancellation check';
    if (channel.cancel) await channel.cancel(started.id, reason);
    else await channel.notify('notifications/cancelled', { requestId: started.id, reason });
    const answer = await started.answer;
    const findings = new Findings();
    const what = `tools/call "${call.tool}" (id ${started.id})`;
    let verdictNote = `${what} was not answered within ${graceMs} ms of its cancellation`;
    if (answer.kind === 'result' || answer.kind === 'error') {
      if (answer.frame.index < cancelledAt) verdictNote = `${what} was answered before the cancel was sent`;
      else if (tookMs !== undefined && tookMs < TOO_FAST_TO_CANCEL_MS) {
        const alive = await channel.request(isModern(context) ? 'server/discover' : 'ping', undefined);
        if (alive.kind !== 'result') findings.fail(frameEvidence(answerFrame(alive), `after the cancellation, the server got ${describeAnswer(alive)}`));
        if (findings.failed) return findings.outcome('');
        return skip(`every planned call answers within ${TOO_FAST_TO_CANCEL_MS} ms (the slowest, "${call.tool}", took ${tookMs} ms), before a cancel can reach it; not judged`);
      } else findings.warn(frameEvidence(answer.frame, `${what} was answered after notifications/cancelled (servers SHOULD NOT answer a cancelled request)`));
    } else if (answer.kind === 'closed') findings.fail({ detail: `after cancelling ${what} the connection closed (${answer.reason})` });
    const liveness = modern ? 'server/discover' : 'ping';
    const alive = await channel.request(liveness, undefined);
    if (alive.kind !== 'result') findings.fail(frameEvidence(alive.kind === 'error' ? alive.frame : undefined, `after the cancellation, ${liveness} got ${describeAnswer(alive)}`));
    return findings.outcome(`${verdictNote}; ${liveness} answered afterwards (the tool was called once more for this)`);
  },
};

/** The made call that took longest to answer, and how long; the first planned one when none answered. */
function slowestCall(made: MadeCall[], frames: readonly RecordedFrame[]): { call: PlannedCall; tookMs?: number } {
  let slowest: { call: PlannedCall; tookMs?: number } | undefined;
  for (const { call, fromIndex, answer } of made) {
    if (answer.kind !== 'result' && answer.kind !== 'error') return { call };
    const tookMs = answer.frame.atMs - (frames[fromIndex]?.atMs ?? answer.frame.atMs);
    if (!slowest || (slowest.tookMs ?? 0) < tookMs) slowest = { call, tookMs };
  }
  return slowest ?? { call: made[0]?.call ?? { tool: '', arguments: {}, generated: false } };
}
