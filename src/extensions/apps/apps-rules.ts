import type { Finding, Severity } from './app-rule.js';
import type { AppRule } from './app-rule.js';
import type { AppsEvidence } from './apps-wire.js';
import { cspListRead } from './rules/csp-list-read.js';
import { hostKeyConflict } from './rules/host-key-conflict.js';
import { htmlDocument } from './rules/html-document.js';
import { htmlLoads } from './rules/html-loads.js';
import { metaOnTool } from './rules/meta-on-tool.js';
import { mimeType } from './rules/mime-type.js';
import { resourceResolves } from './rules/resource-resolves.js';
import { resourceUri } from './rules/resource-uri.js';
import { visibility } from './rules/visibility.js';

/** Every App rule, in the order a UI is met: the tool's declaration, the resource, its metadata, its HTML. */
export const APP_RULES: AppRule[] = [resourceUri, visibility, resourceResolves, mimeType, metaOnTool, cspListRead, hostKeyConflict, htmlDocument, htmlLoads];

const ORDER: Record<Severity, number> = { error: 0, warning: 1, note: 2 };

/** The findings of every rule on these servers, the worst first. */
export function checkApps(servers: AppsEvidence[]): Finding[] {
  return servers.flatMap((evidence) => APP_RULES.flatMap((rule) => rule.check(evidence))).sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}
