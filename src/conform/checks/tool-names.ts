import type { ConformCheck } from '../check-types.js';
import { Findings, frameEvidence } from './findings.js';
import { listedOrSkip, locateItem } from './server-facts.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';

/** The characters 2025-11-25 allows in tool names (server/tools#tool-names, a SHOULD). */
const ALLOWED = /^[A-Za-z0-9_.-]+$/;

/**
 * Tool names: a non-empty string each, unique (clients call tools by name: two tools with one name
 * cannot both be called), and from 2025-11-25 on 1–128 characters of A-Z a-z 0-9 _ - . (SHOULD: warn).
 */
export const toolNames: ConformCheck = {
  id: 'tools.names',
  title: 'Tool names are unique and follow the naming rules',
  section: 'server/tools#tool-names',
  async run(context) {
    const listed = await listedOrSkip(context, 'tools');
    if (!('items' in listed)) return listed;
    const namingRules = context.channel.protocolVersion >= '2025-11-25';
    const findings = new Findings();
    const seen = new Set<string>();
    for (const tool of listed.items) {
      const { frame, path } = locateItem(listed, tool);
      const name = tool.name;
      if (typeof name !== 'string' || name === '') {
        findings.fail(frameEvidence(frame, `a tool has no name (${path}.name)`, `${path}.name`));
        continue;
      }
      if (seen.has(name)) findings.fail(frameEvidence(frame, `tool name "${name}" is listed twice (${path}.name)`, `${path}.name`));
      seen.add(name);
      if (!namingRules) continue;
      if (name.length > 128) findings.warn(frameEvidence(frame, `tool name "${maskThenCut(name, 40)}…" is ${name.length} characters, over 128 (${path}.name)`, `${path}.name`));
      else if (!ALLOWED.test(name)) findings.warn(frameEvidence(frame, `tool name ${JSON.stringify(name)} has characters outside A-Z a-z 0-9 _ - . (${path}.name)`, `${path}.name`));
    }
    return findings.outcome(`${seen.size} tool names, unique${namingRules ? ' and within the naming rules' : ''}`);
  },
};
