import { appFinding, type AppRule } from '../app-rule.js';
import { SOURCES, toolUiOf, VISIBILITIES } from '../apps-wire.js';

/**
 * `_meta.ui.visibility` is a list of "model" and "app" (apps.mdx, "Visibility"; ext-apps
 * spec.types.d.ts McpUiToolVisibility); omitted means both. An empty list hides the tool from the
 * model and refuses the App's calls: nobody can call it.
 */
export const visibility: AppRule = {
  id: 'apps/visibility',
  severity: 'warning',
  summary: 'visibility lists only "model" and "app", and at least one',
  check(evidence) {
    return evidence.tools.flatMap((tool) => {
      const ui = toolUiOf(tool);
      const value = ui?.visibility;
      if (!ui || value === undefined) return [];
      const valid = Array.isArray(value) && value.every((entry) => (VISIBILITIES as readonly unknown[]).includes(entry));
      if (valid && value.length > 0) return [];
      return [
        appFinding(this, evidence, {
          severity: 'warning',
          tool: ui.tool,
          path: '$._meta.ui.visibility',
          message: !valid
            ? `visibility is ${JSON.stringify(value)}: only a list of "model" and "app" is defined, and hosts may drop the tool or refuse its calls`
            : "visibility is empty: hosts hide the tool from the model and refuse the App's calls to it, so nothing can call it",
          fix: 'use ["model", "app"] (the default when omitted), ["model"] or ["app"]',
          source: SOURCES.resourceDiscovery,
        }),
      ];
    });
  },
};
