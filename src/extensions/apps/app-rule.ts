import type { AppsEvidence } from './apps-wire.js';

/** error: hosts do not render the App as meant · warning: it renders, badly or not everywhere · note: worth knowing. */
export type Severity = 'error' | 'warning' | 'note';

/**
 * A finding, shaped as `mcp lint`'s (lint-types.ts Finding) so its `apps` target hands them on
 * unchanged; defined here so the extension does not import lint (which imports the extension).
 */
export interface Finding {
  /** `apps/…` */
  rule: string;
  target: string;
  severity: Severity;
  server: string;
  /** The tool concerned; absent for a UI resource's finding. */
  tool?: string;
  /** Where: a JSONPath in the tool, or `resources/read URI $…` / `resources/list URI $…`. */
  path: string;
  message: string;
  fix: string;
  source: string;
}

/**
 * One App rule (rules/, one per file, shaped as lint's targets are): it reads a server's Apps
 * evidence and returns findings under its id. `mcp apps`, lint's `apps` target and conform's
 * apps checks all run the same list (apps-rules.ts).
 */
export interface AppRule {
  /** `apps/…` */
  id: string;
  /** The worst severity it reports, for the docs' table. */
  severity: Severity;
  /** One line: what it checks. */
  summary: string;
  check(evidence: AppsEvidence): Finding[];
}

/** A finding of the rule about this server (a tool's when `tool` is given, else a UI resource's). */
export function appFinding(rule: Pick<AppRule, 'id'>, evidence: AppsEvidence, finding: Omit<Finding, 'rule' | 'target' | 'server'>): Finding {
  return { rule: rule.id, target: 'apps', server: evidence.server, ...finding };
}
