import { appFinding, type AppRule } from '../app-rule.js';
import { cspOf, listedEntry, metaOf, OPENAI_WIDGET_CSP, OPENAI_WIDGET_DOMAIN, openaiCspOf, readItem, SOURCES, toolUiOf, uiMetaOf } from '../apps-wire.js';

/** The resource's keys: a host reads them from the UI resource and ignores them on the tool. */
const RESOURCE_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder'] as const;

/**
 * CSP, permissions, domain and border belong on the UI resource, not the tool (ext-apps 2.0.4
 * spec.types.d.ts McpUiToolMeta: "csp belongs on the UI resource … Hosts read it from the
 * resources/read content item (with resources/list entry as fallback) and ignore it here";
 * apps.mdx McpUiToolMeta has only resourceUri and visibility). Claude's host logs "Tool … declares
 * _meta.ui.csp/permissions, which is ignored" (apify-mcp-server#1190); ChatGPT's inspector says
 * "Widget CSP is not set" when the resource has none (redmine-mcp-server#249).
 */
export const metaOnTool: AppRule = {
  id: 'apps/csp-on-tool',
  severity: 'warning',
  summary: 'csp, permissions, domain and prefersBorder are declared on the UI resource, not on the tool',
  check(evidence) {
    return evidence.tools.flatMap((tool) => {
      const ui = toolUiOf(tool);
      if (!ui) return [];
      const toolUi = uiMetaOf(tool) ?? {};
      const meta = metaOf(tool) ?? {};
      const misplaced = [
        ...RESOURCE_KEYS.filter((key) => toolUi[key] !== undefined).map((key) => `_meta.ui.${key}`),
        ...[OPENAI_WIDGET_CSP, OPENAI_WIDGET_DOMAIN].filter((key) => meta[key] !== undefined).map((key) => `_meta["${key}"]`),
      ];
      if (misplaced.length === 0) return [];
      const uri = ui.resourceUri;
      const resources = uri ? [readItem(evidence, uri), listedEntry(evidence, uri)] : [];
      const resourceHasCsp = resources.some((item) => cspOf(item) !== undefined || openaiCspOf(item) !== undefined);
      const cspMisplaced = misplaced.some((key) => key.includes('csp') || key.includes('CSP'));
      return [
        appFinding(this, evidence, {
          severity: 'warning',
          tool: ui.tool,
          path: misplaced[0]!.replace(/^_meta/, '$._meta'),
          message:
            `the tool declares ${misplaced.join(', ')}, which hosts ignore on a tool` +
            (cspMisplaced && !resourceHasCsp ? `; ${uri ?? 'its UI resource'} declares no CSP, so hosts use the restrictive default and ChatGPT says "Widget CSP is not set"` : ''),
          fix: `declare them in the UI resource's _meta.ui, in both resources/list and resources/read${uri ? ` (${uri})` : ''}, and drop them from the tool`,
          source: SOURCES.toolMetaTypes,
        }),
      ];
    });
  },
};
