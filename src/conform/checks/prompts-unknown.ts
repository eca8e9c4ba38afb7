import type { ConformCheck } from '../check-types.js';
import { expectErrorCode, Findings, skip } from './findings.js';
import { advertises, unusedName } from './server-facts.js';

/** prompts/get of a prompt that is not listed: -32602 (Invalid params), the same in both revisions. */
export const promptsUnknown: ConformCheck = {
  id: 'prompts.unknown',
  title: 'Getting an unknown prompt answers -32602',
  section: 'server/prompts#error-handling',
  async run(context) {
    if (!advertises(context, 'prompts')) return skip('the server advertises no prompts');
    const listed = await context.listAll('prompts/list');
    const name = unusedName(
      'toolrun-no-such-prompt',
      listed.items.map((prompt) => prompt.name),
    );
    const answer = await context.channel.request('prompts/get', { name, arguments: {} });
    const findings = new Findings();
    expectErrorCode(findings, answer, -32602, `prompts/get of the unknown prompt "${name}"`);
    return findings.outcome('prompts/get of an unknown prompt answered -32602');
  },
};
