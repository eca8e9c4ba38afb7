import type { ConformCheck } from '../check-types.js';
import { compileToolSchema, firstValidationError } from '../tool-schema.js';
import { describeAnswer, Findings, frameEvidence, skip } from './findings.js';
import { madeCalls, noCallsReason } from './made-calls.js';
import { isModern } from './server-facts.js';

/**
 * The calls made (`--call`, `--call-all` only): each answers a tool result with a `content` array,
 * and when the tool declares an outputSchema and the result is not an error, `structuredContent` is
 * there and valid against it (servers MUST, server/tools#output-schema).
 */
export const toolCallResults: ConformCheck = {
  id: 'tools.call-results',
  title: 'Tool results are well formed and match their outputSchema',
  section: 'server/tools#structured-content',
  async run(context) {
    const made = await madeCalls(context);
    if (made.length === 0) return skip(noCallsReason(context));
    const tools = context.capabilities.tools ? (await context.listAll('tools/list')).items : [];
    const findings = new Findings();
    const notJudged: string[] = [];
    for (const { call, answer } of made) {
      const name = JSON.stringify(call.tool);
      if (answer.kind === 'closed') {
        findings.fail({ detail: `tools/call ${name} got ${describeAnswer(answer)}` });
        continue;
      }
      if (answer.kind === 'timeout') {
        // A slow tool is not a broken one; the time limit is toolrun's own, so the call is not judged.
        notJudged.push(`${name} ran longer than --timeout (${answer.afterMs} ms) and was cancelled`);
        continue;
      }
      if (answer.kind === 'error') {
        // A protocol error may be right (arguments the server rejects); it is reported, not failed.
        findings.warn(frameEvidence(answer.frame, `tools/call ${name} answered ${describeAnswer(answer)}`, 'error'));
        continue;
      }
      const result = answer.result;
      if (!Array.isArray(result.content)) findings.fail(frameEvidence(answer.frame, `tools/call ${name}: the result has no content array (result.content)`, 'result.content'));
      const tool = tools.find((candidate) => candidate.name === call.tool);
      const outputSchema = tool?.outputSchema;
      if (typeof outputSchema !== 'object' || outputSchema === null || result.isError === true) continue;
      if (!('structuredContent' in result)) {
        findings.fail(frameEvidence(answer.frame, `tools/call ${name}: the tool declares an outputSchema but the result has no structuredContent`, 'result.structuredContent'));
        continue;
      }
      const structured = result.structuredContent;
      if (!isModern(context) && (typeof structured !== 'object' || structured === null || Array.isArray(structured))) {
        findings.fail(frameEvidence(answer.frame, `tools/call ${name}: structuredContent is not an object (result.structuredContent)`, 'result.structuredContent'));
        continue;
      }
      const compiled = compileToolSchema(outputSchema as Record<string, unknown>, context.channel.protocolVersion);
      if ('problem' in compiled) continue; // tools.output-schema reports the schema itself
      const errors = compiled.validator(structured);
      if (errors) {
        const { path, message } = firstValidationError(errors);
        const at = `result.structuredContent${path.replaceAll('/', '.')}`;
        findings.fail(frameEvidence(answer.frame, `tools/call ${name}: structuredContent does not match the outputSchema: ${at} ${message}`, at));
      }
    }
    const why = `not judged: ${notJudged.join('; ')} (raise --timeout to judge it)`;
    if (notJudged.length === made.length && !findings.failed) return skip(why);
    const judged = made.length - notJudged.length;
    return findings.outcome(`${judged} call${judged === 1 ? '' : 's'} answered well-formed results${notJudged.length ? `; ${why}` : ''}`);
  },
};
