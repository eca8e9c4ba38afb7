import { appFinding, type AppRule } from '../app-rule.js';
import { cspOf, htmlOf, listedEntry, readItem, SOURCES, uiMetaOf, uiUris, type AppCsp } from '../apps-wire.js';
import { cspAllows, resolveLoad, scanHtml } from '../html-loads.js';
import type { Finding } from '../app-rule.js';

/**
 * The HTML loads nothing from an origin its CSP does not allow: hosts build the iframe's CSP from
 * the declared domains and "MUST NOT allow undeclared domains" (apps.mdx, "Host Behavior"), with
 * the restrictive default when `ui.csp` is omitted, so such a script or stylesheet is blocked and
 * the App renders blank (PostHog#76899, atlassian-mcp-server#235). The CSP judged is the one a host
 * applies: the read content item's, else the list entry's (ext-apps spec.types.d.ts). A relative
 * URL in an element has nothing to load from: the App runs in a sandboxed iframe "with no
 * same-origin server" (ext-apps spec.types.d.ts McpUiResourceCsp).
 */
export const htmlLoads: AppRule = {
  id: 'apps/html-loads',
  severity: 'error',
  summary: 'the HTML loads nothing from an origin its CSP does not allow (scripts, styles, images, media, frames, base)',
  check(evidence) {
    return uiUris(evidence).flatMap((uri) => {
      const item = readItem(evidence, uri);
      const html = htmlOf(item);
      if (html === undefined) return [];
      const listed = listedEntry(evidence, uri);
      const csp: AppCsp = cspOf(item) ?? cspOf(listed) ?? {};
      const declaredWhere = cspOf(item) ? 'resources/read' : cspOf(listed) ? 'resources/list' : undefined;
      const toolCsp = evidence.tools.some((tool) => uiMetaOf(tool)?.csp !== undefined && (uiMetaOf(tool)?.resourceUri ?? '') === uri);
      const scan = scanHtml(html);
      const findings: Finding[] = [];
      const blocked = new Map<string, { what: string; url: string; field: string; origin: string }>();
      let relative: { what: string; url: string } | undefined;
      let relativeCount = 0;
      for (const load of scan.loads) {
        const resolved = resolveLoad(load.url, scan.base);
        if (resolved.kind === 'inline') continue;
        if (resolved.kind === 'relative') {
          // CSS url()s are left out: a stylesheet's rules may never apply (bundled libraries' CSS).
          if (load.what.startsWith('style')) continue;
          relative ??= load;
          relativeCount += 1;
          continue;
        }
        if (cspAllows(csp, load.field, resolved.url)) continue;
        const key = `${load.field} ${resolved.url.origin}`;
        if (!blocked.has(key)) blocked.set(key, { what: load.what, url: load.url, field: load.field, origin: resolved.url.origin });
      }
      for (const { what, url, field, origin } of blocked.values()) {
        const why = declaredWhere
          ? `its CSP (${declaredWhere}) has no ${field} entry for ${origin}`
          : `it declares no CSP${toolCsp ? ' on the resource (the one on the tool is ignored)' : ''}, and the default allows no external origin`;
        findings.push(
          appFinding(this, evidence, {
            severity: 'error',
            path: `resources/read ${uri} $.contents[0].text`,
            message: `${uri} loads ${url} (${what}), which hosts block: ${why}`,
            fix: `add "${origin}" to _meta.ui.csp.${field} on the resource (resources/list and resources/read), or inline what it loads`,
            source: SOURCES.uiResourceFormat,
          }),
        );
      }
      if (relative) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            path: `resources/read ${uri} $.contents[0].text`,
            message: `${uri} loads ${relative.url} (${relative.what})${relativeCount > 1 ? ` and ${relativeCount - 1} more relative URL${relativeCount > 2 ? 's' : ''}` : ''}: the App runs in a sandboxed iframe with no same-origin server, so a relative URL loads nothing`,
            fix: 'inline the file into the HTML (a single-file build), or load it by an absolute URL whose origin the CSP allows',
            source: SOURCES.toolMetaTypes,
          }),
        );
      }
      return findings;
    });
  },
};
