import type { ConformCheck } from '../check-types.js';
import { describeAnswer, Findings, frameEvidence } from './findings.js';
import { ITEM_BOUND, listedOrSkip, locateItem } from './server-facts.js';

/** A stand-in value for each required prompt argument (prompt arguments are strings). */
export const PROMPT_ARGUMENT_PLACEHOLDER = 'toolrun';

/** Every listed prompt (the first 25) gets with its required arguments filled, answering messages. */
export const promptsGet: ConformCheck = {
  id: 'prompts.get',
  title: 'Listed prompts can be got with their required arguments',
  section: 'server/prompts#getting-a-prompt',
  async run(context) {
    const listed = await listedOrSkip(context, 'prompts');
    if (!('items' in listed)) return listed;
    const findings = new Findings();
    const toGet = listed.items.slice(0, ITEM_BOUND);
    for (const prompt of toGet) {
      if (typeof prompt.name !== 'string') {
        const { frame, path } = locateItem(listed, prompt);
        findings.fail(frameEvidence(frame, `a listed prompt has no name (${path}.name)`, `${path}.name`));
        continue;
      }
      const required = (Array.isArray(prompt.arguments) ? prompt.arguments : []).filter((argument) => argument?.required === true && typeof argument.name === 'string');
      const args = Object.fromEntries(required.map((argument: { name: string }) => [argument.name, PROMPT_ARGUMENT_PLACEHOLDER]));
      const answer = await context.channel.request('prompts/get', { name: prompt.name, arguments: args });
      const what = `prompts/get of "${prompt.name}"${required.length ? ` with ${required.length} required argument${required.length === 1 ? '' : 's'}` : ''}`;
      // An error for placeholder arguments may be the server judging the values ("toolrun" is not in its
      // list): reported, not failed. Without arguments there is no excuse.
      if (answer.kind === 'error' && required.length > 0) findings.warn(frameEvidence(answer.frame, `${what} (placeholder "${PROMPT_ARGUMENT_PLACEHOLDER}") got ${describeAnswer(answer)}`, 'error'));
      else if (answer.kind !== 'result')
        findings.fail(frameEvidence(answer.kind === 'error' ? answer.frame : undefined, `${what} got ${describeAnswer(answer)}`, answer.kind === 'error' ? 'error' : undefined));
      // 2026-07-28: a prompt may first ask for input (multi round-trip); that is an answer too.
      else if (answer.result.resultType !== 'input_required' && !Array.isArray(answer.result.messages))
        findings.fail(frameEvidence(answer.frame, `${what}: the result has no messages array (result.messages)`, 'result.messages'));
    }
    const bound = listed.items.length > toGet.length ? `the first ${toGet.length} of ${listed.items.length}` : `all ${toGet.length}`;
    return findings.outcome(`got ${bound} listed prompts`);
  },
};
