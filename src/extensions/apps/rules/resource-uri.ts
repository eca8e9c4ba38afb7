import { appFinding, type AppRule } from '../app-rule.js';
import { LEGACY_RESOURCE_URI_KEY, metaOf, SOURCES, uiMetaOf, UI_SCHEME, isRecord } from '../apps-wire.js';

/**
 * A tool's `_meta.ui.resourceUri` is a `ui://` URI (apps.mdx, "Content Requirements": "URI MUST
 * start with ui:// scheme"); the flat `_meta["ui/resourceUri"]` alone is deprecated ("Deprecation
 * notice": removed before GA), and the two disagreeing leave each host its own UI.
 */
export const resourceUri: AppRule = {
  id: 'apps/resource-uri',
  severity: 'error',
  summary: "the tool's UI is named by a ui:// URI in _meta.ui.resourceUri",
  check(evidence) {
    return evidence.tools.flatMap((tool) => {
      const name = String(tool.name);
      const ui = uiMetaOf(tool);
      const meta = metaOf(tool);
      const legacy = meta?.[LEGACY_RESOURCE_URI_KEY];
      const findings = [];
      const modern = ui?.resourceUri;
      if (meta && meta.ui !== undefined && !isRecord(meta.ui)) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'error',
            tool: name,
            path: '$._meta.ui',
            message: `_meta.ui is ${JSON.stringify(meta.ui)}, not an object: hosts find no UI`,
            fix: 'make _meta.ui an object: { "resourceUri": "ui://…" }',
            source: SOURCES.resourceDiscovery,
          }),
        );
      }
      for (const [value, path] of [
        [modern, '$._meta.ui.resourceUri'],
        [legacy, `$._meta["${LEGACY_RESOURCE_URI_KEY}"]`],
      ] as const) {
        if (value === undefined) continue;
        if (typeof value !== 'string' || !value.startsWith(UI_SCHEME)) {
          findings.push(
            appFinding(this, evidence, {
              severity: 'error',
              tool: name,
              path,
              message: `${JSON.stringify(value)} is not a ui:// URI: hosts render only ui:// resources`,
              fix: 'name the UI resource with a ui:// URI (ui://server/view.html) and list it under that URI',
              source: SOURCES.uiResourceFormat,
            }),
          );
        }
      }
      if (modern === undefined && typeof legacy === 'string') {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            tool: name,
            path: `$._meta["${LEGACY_RESOURCE_URI_KEY}"]`,
            message: `the UI is named only by the deprecated flat key ${LEGACY_RESOURCE_URI_KEY}, which the spec removes before GA`,
            fix: `add _meta.ui.resourceUri: ${JSON.stringify(legacy)} (keep the flat key for older hosts if you like)`,
            source: SOURCES.resourceDiscovery,
          }),
        );
      } else if (typeof modern === 'string' && typeof legacy === 'string' && modern !== legacy) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            tool: name,
            path: `$._meta["${LEGACY_RESOURCE_URI_KEY}"]`,
            message: `_meta.ui.resourceUri is ${modern} but the flat ${LEGACY_RESOURCE_URI_KEY} says ${legacy}: older hosts render another UI`,
            fix: 'give both keys the same URI, or drop the flat one',
            source: SOURCES.resourceDiscovery,
          }),
        );
      }
      return findings;
    });
  },
};
