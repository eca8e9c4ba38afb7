import { appFinding, type AppRule } from '../app-rule.js';
import {
  cspOf,
  describeCsp,
  listedEntry,
  metaOf,
  OPENAI_OUTPUT_TEMPLATE,
  OPENAI_PREFERS_BORDER,
  OPENAI_WIDGET_CSP,
  openaiCspOf,
  readItem,
  sameCsp,
  SOURCES,
  toolUiOf,
  uiMetaOf,
  uiUris,
} from '../apps-wire.js';
import type { Finding } from '../app-rule.js';

/**
 * Host-specific keys that contradict the standard ones: ChatGPT reads `openai/widgetCSP`,
 * `openai/widgetPrefersBorder` and the tool's `openai/outputTemplate` (OpenAI Apps SDK reference,
 * "_meta fields"), Claude and the other MCP Apps hosts `_meta.ui` (apps.mdx). Declared both ways
 * with different values, the App loads and looks differently per host (PostHog#69612 declared
 * its CSP both ways; the two must say the same). The host-dependent `domain` is not compared: its
 * format differs per host by design (apps.mdx UIResourceMeta.domain).
 */
export const hostKeyConflict: AppRule = {
  id: 'apps/host-key-conflict',
  severity: 'warning',
  summary: 'openai/* keys say what the standard _meta.ui keys say',
  check(evidence) {
    const findings: Finding[] = [];
    for (const tool of evidence.tools) {
      const ui = toolUiOf(tool);
      const template = metaOf(tool)?.[OPENAI_OUTPUT_TEMPLATE];
      if (ui?.resourceUri && typeof template === 'string' && template !== ui.resourceUri) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            tool: ui.tool,
            path: `$._meta["${OPENAI_OUTPUT_TEMPLATE}"]`,
            message: `${OPENAI_OUTPUT_TEMPLATE} is ${template} but _meta.ui.resourceUri is ${ui.resourceUri}: ChatGPT renders another UI than the other hosts`,
            fix: 'point both keys at the same ui:// resource',
            source: SOURCES.openaiReference,
          }),
        );
      }
    }
    for (const uri of uiUris(evidence)) {
      for (const [where, item] of [
        ['resources/read', readItem(evidence, uri)],
        ['resources/list', listedEntry(evidence, uri)],
      ] as const) {
        if (!item) continue;
        const standard = cspOf(item);
        const openai = openaiCspOf(item);
        if (standard && openai && !sameCsp(standard, openai, ['connectDomains', 'resourceDomains', 'frameDomains'])) {
          findings.push(
            appFinding(this, evidence, {
              severity: 'warning',
              path: `${where} ${uri} $._meta["${OPENAI_WIDGET_CSP}"]`,
              message: `${uri} (${where}): ${OPENAI_WIDGET_CSP} allows ${describeCsp(openai)} but _meta.ui.csp allows ${describeCsp(standard)}: ChatGPT and the other hosts load different things`,
              fix: `derive ${OPENAI_WIDGET_CSP} (connect_domains, resource_domains, frame_domains) from _meta.ui.csp, or drop it: ChatGPT reads _meta.ui too`,
              source: SOURCES.posthogOpenai,
            }),
          );
        }
        const border = metaOf(item)?.[OPENAI_PREFERS_BORDER];
        const standardBorder = uiMetaOf(item)?.prefersBorder;
        if (typeof border === 'boolean' && typeof standardBorder === 'boolean' && border !== standardBorder) {
          findings.push(
            appFinding(this, evidence, {
              severity: 'warning',
              path: `${where} ${uri} $._meta["${OPENAI_PREFERS_BORDER}"]`,
              message: `${uri} (${where}): ${OPENAI_PREFERS_BORDER} is ${border} but _meta.ui.prefersBorder is ${standardBorder}`,
              fix: 'give both keys the same value',
              source: SOURCES.openaiReference,
            }),
          );
        }
      }
    }
    return findings;
  },
};
