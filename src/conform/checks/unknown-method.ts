import type { ConformCheck } from '../check-types.js';
import { expectErrorCode, Findings } from './findings.js';

/** A method no revision defines: JSON-RPC's -32601 is how clients learn a server lacks something. */
export const UNKNOWN_METHOD = 'toolrun/no-such-method';

export const unknownMethod: ConformCheck = {
  id: 'jsonrpc.unknown-method',
  title: 'An unknown method answers -32601 (Method not found)',
  section: 'basic/index#error-responses',
  async run(context) {
    const findings = new Findings();
    const answer = await context.channel.request(UNKNOWN_METHOD, {});
    expectErrorCode(findings, answer, -32601, UNKNOWN_METHOD, { onOtherCode: 'fail' });
    return findings.outcome(`${UNKNOWN_METHOD} answered -32601`);
  },
};
