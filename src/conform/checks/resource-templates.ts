import type { ConformCheck } from '../check-types.js';
import { Findings, frameEvidence, skip } from './findings.js';
import { advertises, locateItem } from './server-facts.js';

/** resources/templates/list works when resources are advertised, each template with a uriTemplate and a name. */
export const resourceTemplates: ConformCheck = {
  id: 'resources.templates',
  title: 'Resource templates list, each with a uriTemplate',
  section: 'server/resources#resource-templates',
  async run(context) {
    if (!advertises(context, 'resources')) return skip('the server advertises no resources');
    const listed = await context.listAll('resources/templates/list');
    const findings = new Findings();
    if (listed.stopped && listed.pages.length === 1) {
      const frame = listed.pages[0]?.frame ?? listed.stopped.frame;
      findings.fail(frameEvidence(frame, `resources/templates/list failed: ${listed.stopped.reason}`, frame ? 'error' : undefined));
      return findings.outcome('');
    }
    for (const template of listed.items) {
      const { frame, path } = locateItem(listed, template);
      if (typeof template.uriTemplate !== 'string' || template.uriTemplate === '')
        findings.fail(frameEvidence(frame, `a resource template has no uriTemplate (${path}.uriTemplate)`, `${path}.uriTemplate`));
      else if (typeof template.name !== 'string') findings.fail(frameEvidence(frame, `resource template ${template.uriTemplate} has no name (${path}.name)`, `${path}.name`));
    }
    return findings.outcome(listed.items.length === 0 ? 'resources/templates/list works (no templates)' : `${listed.items.length} resource templates, each with a uriTemplate`);
  },
};
