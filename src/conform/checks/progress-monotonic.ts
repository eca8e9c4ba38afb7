import type { ConformCheck } from '../check-types.js';
import type { RecordedFrame } from '../probe-types.js';
import { Findings, frameEvidence, skip } from './findings.js';
import { madeCalls, noCallsReason } from './made-calls.js';

interface ProgressParams {
  progressToken?: unknown;
  progress?: unknown;
  total?: unknown;
}

/**
 * On the calls made (each with a progress token): every notifications/progress names a token a
 * request carried, its `progress` increases with each notification (MUST), none comes after the
 * response (the token is then no longer active), and `progress` does not pass `total` (warn).
 */
export const progressMonotonic: ConformCheck = {
  id: 'progress.monotonic',
  title: 'Progress notifications increase and stop with the response',
  section: 'basic/utilities/progress#progress-flow',
  modernSection: 'basic/patterns/progress#progress-flow',
  async run(context) {
    const made = await madeCalls(context);
    if (made.length === 0) return skip(noCallsReason(context));
    const frames = context.channel.framesFrom(0);
    const tokensSent = new Set(
      frames
        .filter((frame) => frame.direction === 'sent')
        .map((frame) => progressTokenOf(frame))
        .filter((token) => token !== undefined),
    );
    const progress = frames.filter((frame) => frame.direction === 'received' && (frame.message as { method?: unknown } | undefined)?.method === 'notifications/progress');
    if (progress.length === 0) return skip(`the server sent no progress notifications during ${made.length} call${made.length === 1 ? '' : 's'} (it MAY send none)`);
    const findings = new Findings();
    const last = new Map<unknown, number>();
    for (const frame of progress) {
      const params = ((frame.message as { params?: ProgressParams }).params ?? {}) as ProgressParams;
      const token = params.progressToken;
      if (!tokensSent.has(token as string | number)) {
        findings.fail(frameEvidence(frame, `notifications/progress for the token ${JSON.stringify(token)}, which no request carried`, 'params.progressToken'));
        continue;
      }
      if (typeof params.progress !== 'number') {
        findings.fail(frameEvidence(frame, `notifications/progress for ${JSON.stringify(token)} has no numeric progress (params.progress)`, 'params.progress'));
        continue;
      }
      const before = last.get(token);
      if (before !== undefined && params.progress <= before)
        findings.fail(frameEvidence(frame, `progress for ${JSON.stringify(token)} went from ${before} to ${params.progress} (it MUST increase)`, 'params.progress'));
      last.set(token, params.progress);
      if (typeof params.total === 'number' && params.progress > params.total)
        findings.warn(frameEvidence(frame, `progress for ${JSON.stringify(token)} is ${params.progress}, past its total ${params.total}`, 'params.progress'));
    }
    for (const { progressToken, answer, call } of made) {
      if (answer.kind !== 'result' && answer.kind !== 'error') continue;
      const late = progress.find((frame) => frame.index > answer.frame.index && progressTokenOfNotification(frame) === progressToken);
      if (late) findings.fail(frameEvidence(late, `notifications/progress for the call of "${call.tool}" came after its response`, 'params.progressToken'));
    }
    return findings.outcome(`${progress.length} progress notification${progress.length === 1 ? '' : 's'} on ${last.size} call${last.size === 1 ? '' : 's'}, increasing, none after the response`);
  },
};

function progressTokenOf(frame: RecordedFrame): string | number | undefined {
  const token = (frame.message as { params?: { _meta?: { progressToken?: unknown } } } | undefined)?.params?._meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

function progressTokenOfNotification(frame: RecordedFrame): unknown {
  return (frame.message as { params?: ProgressParams }).params?.progressToken;
}
