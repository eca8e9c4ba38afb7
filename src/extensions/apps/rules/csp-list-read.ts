import { appFinding, type AppRule } from '../app-rule.js';
import { cspOf, describeCsp, listedEntry, readItem, sameCsp, SOURCES, uiMetaOf, uiUris } from '../apps-wire.js';
import type { Finding } from '../app-rule.js';

/**
 * The resource's CSP and domain are the same in resources/list and resources/read. Hosts read the
 * content item of resources/read, with the list entry as a fallback (ext-apps spec.types.d.ts
 * McpUiToolMeta; VS Code reads the content item, microsoft/vscode#287107), but some build their
 * CSP from the listing only (PostHog#76899: PostHog Desktop rendered blank frames; PostHog#98901).
 * Both present and different: which one applies depends on the host (a warning). Present in one
 * place only: a host reading the other uses the restrictive default (a note: the spec's own
 * example declares it on the read answer only, as the official example servers do).
 */
export const cspListRead: AppRule = {
  id: 'apps/csp-list-read',
  severity: 'warning',
  summary: "the resource's CSP and domain are declared alike in resources/list and resources/read",
  check(evidence) {
    return uiUris(evidence).flatMap((uri) => {
      const listed = listedEntry(evidence, uri);
      const item = readItem(evidence, uri);
      if (!listed || !item) return [];
      const findings: Finding[] = [];
      const listCsp = cspOf(listed);
      const readCsp = cspOf(item);
      if (listCsp && readCsp && !sameCsp(listCsp, readCsp)) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            path: `resources/list ${uri} $._meta.ui.csp`,
            message: `${uri} declares one CSP in resources/list (${describeCsp(listCsp)}) and another in resources/read (${describeCsp(readCsp)}): what the App may load depends on the host`,
            fix: 'build _meta.ui once and serve the same object on the list entry and the read content item',
            source: SOURCES.posthogList,
          }),
        );
      } else if (readCsp && !listCsp) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'note',
            path: `resources/list ${uri} $._meta.ui.csp`,
            message: `${uri} declares its CSP in resources/read only: a host that builds the CSP from resources/list (PostHog Desktop did) applies the restrictive default`,
            fix: 'serve the same _meta.ui on the resources/list entry too',
            source: SOURCES.posthogListOnly,
          }),
        );
      } else if (listCsp && !readCsp) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'note',
            path: `resources/read ${uri} $.contents[0]._meta.ui.csp`,
            message: `${uri} declares its CSP in resources/list only: hosts read the resources/read content item first and take the list entry only as a fallback`,
            fix: 'serve the same _meta.ui on the resources/read content item too',
            source: SOURCES.toolMetaTypes,
          }),
        );
      }
      const listDomain = uiMetaOf(listed)?.domain;
      const readDomain = uiMetaOf(item)?.domain;
      if (listDomain !== undefined && readDomain !== undefined && listDomain !== readDomain) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            path: `resources/list ${uri} $._meta.ui.domain`,
            message: `${uri} declares the domain ${JSON.stringify(listDomain)} in resources/list and ${JSON.stringify(readDomain)} in resources/read: the App's origin depends on the host`,
            fix: 'serve the same _meta.ui.domain on the list entry and the read content item',
            source: SOURCES.uiResourceFormat,
          }),
        );
      } else if ((listDomain === undefined) !== (readDomain === undefined)) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'note',
            path: `resources/${listDomain === undefined ? 'list' : 'read'} ${uri} $._meta.ui.domain`,
            message: `${uri} declares its domain in resources/${listDomain === undefined ? 'read' : 'list'} only: a host reading the other gives the App its default sandbox origin`,
            fix: 'serve the same _meta.ui.domain on the list entry and the read content item',
            source: SOURCES.redmineNotSet,
          }),
        );
      }
      return findings;
    });
  },
};
