import { appFinding, type AppRule } from '../app-rule.js';
import { listedEntry, readItem, SOURCES, toolUis, uiUris } from '../apps-wire.js';

/**
 * The URI a tool names resolves (apps.mdx, "Resource Discovery": "Resource MUST exist on the
 * server"; "Host MUST use resources/read to fetch the referenced resource URI"). A resource left
 * out of resources/list is allowed ("Servers MAY omit UI-only resources"), so that is a note: a
 * host that reviews or preloads templates from the listing ("Benefits") does not see it.
 */
export const resourceResolves: AppRule = {
  id: 'apps/resource-resolves',
  severity: 'error',
  summary: 'the ui:// URI a tool names answers resources/read (and is listed)',
  check(evidence) {
    const uis = toolUis(evidence);
    return uiUris(evidence).flatMap((uri) => {
      const tools = uis.filter((ui) => ui.resourceUri === uri).map((ui) => ui.tool);
      const named = `${uri} (the UI of ${tools.join(', ')})`;
      const outcome = evidence.reads.get(uri);
      if (outcome && 'error' in outcome) {
        return [
          appFinding(this, evidence, {
            severity: 'error',
            path: `resources/read ${uri}`,
            message: `${named} does not resolve: resources/read answered ${outcome.error}`,
            fix: 'register the UI resource under exactly the URI the tool names',
            source: SOURCES.resourceDiscovery,
          }),
        ];
      }
      if (!readItem(evidence, uri)) {
        return [
          appFinding(this, evidence, {
            severity: 'error',
            path: `resources/read ${uri} $.contents`,
            message: `${named}: resources/read answered with no content`,
            fix: 'answer resources/read with one content item: { uri, mimeType: "text/html;profile=mcp-app", text: "<!DOCTYPE html>…" }',
            source: SOURCES.uiResourceFormat,
          }),
        ];
      }
      if (evidence.resources && !listedEntry(evidence, uri)) {
        return [
          appFinding(this, evidence, {
            severity: 'note',
            path: `resources/list ${uri}`,
            message: `${named} is readable but not in resources/list: allowed, though a host that reviews or preloads UI templates from the listing does not see it`,
            fix: 'list the UI resource (name, uri, mimeType and its _meta.ui) in resources/list',
            source: SOURCES.resourceDiscovery,
          }),
        ];
      }
      return [];
    });
  },
};
