import type { ApiItem } from '../snapshot/snapshot-types.js';
import { LINT_TARGETS } from './lint-targets.js';
import { lintServers } from './lint-servers.js';
import type { Finding } from './lint-types.js';
import type { CountTokens } from './token-counter.js';
import { countToolTokens } from './token-report.js';

/**
 * What `mcp diff` adds (SPEC §19): the token cost of the tools that changed, and the lint findings
 * (error and warning level, every target) that the new version gains or loses. Only the added,
 * removed and changed tools are counted, so an unchanged tool list loads no tokenizer.
 */
export interface LintDelta {
  /** OpenAI's o200k_base count of the changed definitions, after minus before; absent when no tool changed. */
  tokens?: { before: number; after: number; delta: number };
  /** Findings the new version has and the old one had not: "newly breaks gemini: $defs in search.inputSchema". */
  added: Finding[];
  /** Findings the old version had that are gone. */
  removed: Finding[];
}

export async function lintDelta(server: string, before: ApiItem[], after: ApiItem[], count: CountTokens | undefined): Promise<LintDelta> {
  const [old, next] = await Promise.all([lintServers([{ server, tools: before }], { targets: LINT_TARGETS }), lintServers([{ server, tools: after }], { targets: LINT_TARGETS })]);
  const key = (finding: Finding) => `${finding.rule}\0${finding.tool ?? ''}\0${finding.path}`;
  const serious = (finding: Finding) => finding.severity !== 'note';
  const oldKeys = new Set(old.findings.filter(serious).map(key));
  const nextKeys = new Set(next.findings.filter(serious).map(key));
  const delta: LintDelta = {
    added: next.findings.filter((finding) => serious(finding) && !oldKeys.has(key(finding))),
    removed: old.findings.filter((finding) => serious(finding) && !nextKeys.has(key(finding))),
  };
  const beforeByName = new Map(before.map((tool) => [String(tool.name), JSON.stringify(tool)]));
  const afterByName = new Map(after.map((tool) => [String(tool.name), JSON.stringify(tool)]));
  const changedBefore = before.filter((tool) => afterByName.get(String(tool.name)) !== JSON.stringify(tool));
  const changedAfter = after.filter((tool) => beforeByName.get(String(tool.name)) !== JSON.stringify(tool));
  if (count && (changedBefore.length > 0 || changedAfter.length > 0)) {
    const [was, is] = await Promise.all([countToolTokens([{ server, tools: changedBefore }], 'openai', count), countToolTokens([{ server, tools: changedAfter }], 'openai', count)]);
    delta.tokens = { before: was.total, after: is.total, delta: is.total - was.total };
  }
  return delta;
}
