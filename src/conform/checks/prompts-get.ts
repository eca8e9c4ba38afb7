import type { ConformCheck } from '../check-types.js';
import { describeAnswer, Findings, frameEvidence, skip } from './findings.js';
import { fillPromptArguments } from './prompt-arguments.js';
import { ITEM_BOUND, listedOrSkip, locateItem } from './server-facts.js';

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
    const notJudged: string[] = [];
    for (const prompt of toGet) {
      if (typeof prompt.name !== 'string') {
        const { frame, path } = locateItem(listed, prompt);
        findings.fail(frameEvidence(frame, `a listed prompt has no name (${path}.name)`, `${path}.name`));
        continue;
      }
      const required = (Array.isArray(prompt.arguments) ? prompt.arguments : []).filter((argument) => argument?.required === true && typeof argument.name === 'string');
      const { args, madeUp } = await fillPromptArguments(
        context,
        prompt.name,
        required.map((argument: { name: string }) => argument.name),
      );
      const answer = await context.channel.request('prompts/get', { name: prompt.name, arguments: args });
      const what = `prompts/get of "${prompt.name}"${required.length ? ` with ${required.length} required argument${required.length === 1 ? '' : 's'}` : ''}`;
      // A value toolrun made up, refused, is the server judging it ("toolrun" is no resource id): the
      // prompt is not judged. Values the server itself suggested, refused, are a warning; without
      // arguments there is no excuse.
      if (answer.kind === 'error' && madeUp.length > 0) notJudged.push(`"${prompt.name}" refused toolrun's placeholder for ${madeUp.join(', ')} (no completion offered)`);
      else if (answer.kind === 'error' && required.length > 0) findings.warn(frameEvidence(answer.frame, `${what} (values from its completions) got ${describeAnswer(answer)}`, 'error'));
      else if (answer.kind !== 'result')
        findings.fail(frameEvidence(answer.kind === 'error' ? answer.frame : undefined, `${what} got ${describeAnswer(answer)}`, answer.kind === 'error' ? 'error' : undefined));
      // 2026-07-28: a prompt may first ask for input (multi round-trip); that is an answer too.
      else if (answer.result.resultType !== 'input_required' && !Array.isArray(answer.result.messages))
        findings.fail(frameEvidence(answer.frame, `${what}: the result has no messages array (result.messages)`, 'result.messages'));
    }
    const bound = listed.items.length > toGet.length ? `the first ${toGet.length} of ${listed.items.length}` : `all ${toGet.length}`;
    if (notJudged.length === toGet.length && toGet.length > 0 && !findings.failed) return skip(`not judged: ${notJudged.join('; ')}`);
    return findings.outcome(`got ${bound} listed prompts${notJudged.length ? `; not judged: ${notJudged.join('; ')}` : ''}`);
  },
};
