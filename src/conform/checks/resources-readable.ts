import type { ConformCheck } from '../check-types.js';
import { describeAnswer, Findings, frameEvidence } from './findings.js';
import { ITEM_BOUND, listedOrSkip, locateItem } from './server-facts.js';

/** Every listed resource (the first 25) reads with resources/read, its contents each naming a uri. */
export const resourcesReadable: ConformCheck = {
  id: 'resources.readable',
  title: 'Listed resources can be read',
  section: 'server/resources#reading-resources',
  async run(context) {
    const listed = await listedOrSkip(context, 'resources');
    if (!('items' in listed)) return listed;
    const findings = new Findings();
    const toRead = listed.items.slice(0, ITEM_BOUND);
    for (const resource of toRead) {
      const uri = resource.uri;
      if (typeof uri !== 'string') {
        const { frame, path } = locateItem(listed, resource);
        findings.fail(frameEvidence(frame, `a listed resource has no uri (${path}.uri)`, `${path}.uri`));
        continue;
      }
      const answer = await context.channel.request('resources/read', { uri });
      if (answer.kind !== 'result') {
        findings.fail(
          frameEvidence(answer.kind === 'error' ? answer.frame : undefined, `resources/read of the listed ${uri} got ${describeAnswer(answer)}`, answer.kind === 'error' ? 'error' : undefined),
        );
        continue;
      }
      const contents = answer.result.contents;
      if (!Array.isArray(contents)) {
        findings.fail(frameEvidence(answer.frame, `resources/read of ${uri}: the result has no contents array (result.contents)`, 'result.contents'));
        continue;
      }
      const nameless = contents.findIndex((content) => typeof (content as { uri?: unknown } | null)?.uri !== 'string');
      if (nameless >= 0)
        findings.fail(frameEvidence(answer.frame, `resources/read of ${uri}: contents[${nameless}] has no uri (result.contents[${nameless}].uri)`, `result.contents[${nameless}].uri`));
    }
    const bound = listed.items.length > toRead.length ? `the first ${toRead.length} of ${listed.items.length}` : `all ${toRead.length}`;
    return findings.outcome(`read ${bound} listed resources`);
  },
};
