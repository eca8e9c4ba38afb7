import type { Finding, Severity } from '../../lint/lint-types.js';
import type { AppsEvidence } from './apps-wire.js';

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
