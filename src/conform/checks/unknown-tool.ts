import type { ConformCheck } from '../check-types.js';
import { describeAnswer, Findings, frameEvidence, skip } from './findings.js';
import { advertises, unusedName } from './server-facts.js';

/**
 * tools/call for a tool that is not listed is a protocol error, -32602 (server/tools#error-handling,
 * the same in 2025-11-25 and 2026-07-28). A tool result marked isError reports it in the wrong
 * channel (warn); a plain result claims a call that cannot have happened (fail).
 */
export const unknownTool: ConformCheck = {
  id: 'tools.unknown-tool',
  title: 'Calling an unknown tool answers -32602',
  section: 'server/tools#error-handling',
  async run(context) {
    if (!advertises(context, 'tools')) return skip('the server advertises no tools');
    const listed = await context.listAll('tools/list');
    const name = unusedName(
      'toolrun-no-such-tool',
      listed.items.map((tool) => tool.name),
    );
    const answer = await context.channel.request('tools/call', { name, arguments: {} });
    const findings = new Findings();
    const what = `tools/call of the unknown tool "${name}"`;
    if (answer.kind === 'result') {
      if (answer.result.isError === true) findings.warn(frameEvidence(answer.frame, `${what} answered a tool result with isError instead of error -32602`, 'result.isError'));
      else findings.fail(frameEvidence(answer.frame, `${what} answered with a successful result instead of error -32602`, 'result'));
    } else if (answer.kind === 'error') {
      if (answer.error.code !== -32602) findings.warn(frameEvidence(answer.frame, `${what} answered ${describeAnswer(answer)} instead of -32602`, 'error.code'));
    } else findings.fail({ detail: `${what} got ${describeAnswer(answer)}` });
    return findings.outcome(`${what} answered -32602`);
  },
};
