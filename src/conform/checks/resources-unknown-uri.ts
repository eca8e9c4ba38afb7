import type { ConformCheck } from '../check-types.js';
import { expectErrorCode, Findings, skip } from './findings.js';
import { advertises, isModern, unusedName } from './server-facts.js';

/**
 * Reading a resource that does not exist: -32002 "Resource not found" in the 2025 family (a
 * SHOULD: another code is a warn); 2026-07-28 changed it to -32602, a MUST (the old -32002 fails there).
 */
export const resourcesUnknownUri: ConformCheck = {
  id: 'resources.unknown-uri',
  title: 'Reading an unknown resource answers "Resource not found"',
  section: 'server/resources#error-handling',
  async run(context) {
    if (!advertises(context, 'resources')) return skip('the server advertises no resources');
    const listed = await context.listAll('resources/list');
    const uri = unusedName(
      'toolrun-conform:///no-such-resource',
      listed.items.map((resource) => resource.uri),
    );
    const answer = await context.channel.request('resources/read', { uri });
    const findings = new Findings();
    const expected = isModern(context) ? -32602 : -32002;
    expectErrorCode(findings, answer, expected, `resources/read of the unknown ${uri}`, { onOtherCode: isModern(context) ? 'fail' : 'warn' });
    return findings.outcome(`resources/read of an unknown uri answered ${expected}`);
  },
};
