import type { ConformCheck } from '../check-types.js';
import { compileToolSchema } from '../tool-schema.js';
import { Findings, frameEvidence, skip } from './findings.js';
import { advertises, isModern, listingFailure, locateItem } from './server-facts.js';

/**
 * A declared `outputSchema` is valid JSON Schema; in the 2025 family its root is `type: "object"`
 * (structuredContent was an object), while 2026-07-28 allows any schema (any JSON value).
 */
export const toolOutputSchema: ConformCheck = {
  id: 'tools.output-schema',
  title: 'Declared outputSchemas are valid JSON Schema',
  section: 'server/tools#output-schema',
  async run(context) {
    if (!advertises(context, 'tools')) return skip('the server advertises no tools');
    const listed = await context.listAll('tools/list');
    const failure = listingFailure(listed);
    if (failure) return skip(`${failure} (see capabilities.honest)`);
    const declaring = listed.items.filter((tool) => tool.outputSchema !== undefined);
    if (declaring.length === 0) return skip(`none of the ${listed.items.length} tools declares an outputSchema`);
    const findings = new Findings();
    for (const tool of declaring) {
      const { frame, path } = locateItem(listed, tool);
      const name = JSON.stringify(tool.name);
      const schema = tool.outputSchema;
      const at = `${path}.outputSchema`;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) findings.fail(frameEvidence(frame, `tool ${name} has an outputSchema that is not an object (${at})`, at));
      else if (!isModern(context) && (schema as Record<string, unknown>).type !== 'object')
        findings.fail(frameEvidence(frame, `tool ${name} has an outputSchema whose type is not "object" (${at}.type)`, `${at}.type`));
      else {
        const compiled = compileToolSchema(schema as Record<string, unknown>, context.channel.protocolVersion);
        if ('problem' in compiled) findings[compiled.unsupportedDialect ? 'warn' : 'fail'](frameEvidence(frame, `tool ${name} outputSchema: ${compiled.problem} (${at})`, at));
      }
    }
    return findings.outcome(`${declaring.length} outputSchemas, all valid`);
  },
};
