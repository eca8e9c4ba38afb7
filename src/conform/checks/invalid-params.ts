import type { ConformCheck } from '../check-types.js';
import { expectErrorCode, Findings, skip } from './findings.js';
import { advertises } from './server-facts.js';

/** Requests missing their one required parameter, per advertised capability. */
const MALFORMED = [
  { capability: 'tools', method: 'tools/call', missing: 'name' },
  { capability: 'resources', method: 'resources/read', missing: 'uri' },
  { capability: 'prompts', method: 'prompts/get', missing: 'name' },
];

/**
 * A request without its required parameter is malformed: JSON-RPC's -32602 (Invalid params). A
 * result claims the request made sense (fail); another error code is reported as a warn.
 */
export const invalidParams: ConformCheck = {
  id: 'params.invalid',
  title: 'A request missing a required parameter answers -32602',
  section: 'basic/index#error-responses',
  async run(context) {
    const probes = MALFORMED.filter((probe) => advertises(context, probe.capability));
    if (probes.length === 0) return skip('the server advertises no tools, resources or prompts');
    const findings = new Findings();
    for (const probe of probes) {
      const answer = await context.channel.request(probe.method, {});
      expectErrorCode(findings, answer, -32602, `${probe.method} without "${probe.missing}"`);
    }
    return findings.outcome(`${probes.map((probe) => probe.method).join(', ')} without their required parameter answered -32602`);
  },
};
