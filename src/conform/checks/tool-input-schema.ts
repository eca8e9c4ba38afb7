import type { ConformCheck } from '../check-types.js';
import { compileToolSchema } from '../tool-schema.js';
import { Findings, frameEvidence } from './findings.js';
import { listedOrSkip, locateItem } from './server-facts.js';

/**
 * Every tool has an `inputSchema` that is a JSON Schema object with `type: "object"` (both revisions'
 * schema require it) and is valid in its dialect (2020-12 unless `$schema` says otherwise): clients
 * build arguments and forms from it, and a tool without one cannot be called by most of them.
 */
export const toolInputSchema: ConformCheck = {
  id: 'tools.input-schema',
  title: 'Every tool has a valid inputSchema of type "object"',
  section: 'server/tools#tool',
  async run(context) {
    const listed = await listedOrSkip(context, 'tools');
    if (!('items' in listed)) return listed;
    const findings = new Findings();
    for (const tool of listed.items) {
      const { frame, path } = locateItem(listed, tool);
      const name = JSON.stringify(tool.name);
      const schema = tool.inputSchema;
      const at = `${path}.inputSchema`;
      if (schema === undefined) findings.fail(frameEvidence(frame, `tool ${name} has no inputSchema (${at})`, at));
      else if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) findings.fail(frameEvidence(frame, `tool ${name} has an inputSchema that is not an object (${at})`, at));
      else if ((schema as Record<string, unknown>).type !== 'object') findings.fail(frameEvidence(frame, `tool ${name} has an inputSchema whose type is not "object" (${at}.type)`, `${at}.type`));
      else {
        const compiled = compileToolSchema(schema as Record<string, unknown>, context.channel.protocolVersion);
        if ('problem' in compiled) findings[compiled.unsupportedDialect ? 'warn' : 'fail'](frameEvidence(frame, `tool ${name} inputSchema: ${compiled.problem} (${at})`, at));
      }
    }
    return findings.outcome(`${listed.items.length} tools, each with a valid inputSchema of type "object"`);
  },
};
