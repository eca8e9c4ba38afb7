import type { ConformCheck } from '../check-types.js';
import { describeAnswer, Findings, frameEvidence, skip } from './findings.js';
import { isModern } from './server-facts.js';

/** ping answers promptly with an empty result (2025 family; 2026-07-28 removed ping). */
export const ping: ConformCheck = {
  id: 'ping',
  title: 'ping answers with an empty result',
  section: 'basic/utilities/ping#behavior-requirements',
  async run(context) {
    if (isModern(context)) return skip('ping is not part of 2026-07-28 (removed with the stateless protocol)');
    const findings = new Findings();
    const started = performance.now();
    const answer = await context.channel.request('ping', undefined);
    const tookMs = Math.round(performance.now() - started);
    if (answer.kind !== 'result') findings.fail(frameEvidence(answer.kind === 'error' ? answer.frame : undefined, `ping got ${describeAnswer(answer)}`, answer.kind === 'error' ? 'error' : undefined));
    else {
      const extra = Object.keys(answer.result).filter((key) => key !== '_meta');
      if (extra.length > 0) findings.fail(frameEvidence(answer.frame, `ping answered a result that is not empty (result.${extra[0]})`, `result.${extra[0]}`));
    }
    return findings.outcome(`ping answered {} in ${tookMs} ms`);
  },
};
