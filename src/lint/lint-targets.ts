import type { LintTarget, Severity } from './lint-types.js';
import { anthropic } from './targets/anthropic.js';
import { apps } from './targets/apps.js';
import { codex } from './targets/codex.js';
import { cursor } from './targets/cursor.js';
import { gemini } from './targets/gemini.js';
import { geminiCli } from './targets/gemini-cli.js';
import { openai } from './targets/openai.js';
import { vscode } from './targets/vscode.js';
import { windsurf } from './targets/windsurf.js';

/**
 * Every target's rule table. A table is versioned as conform's profiles are: a rule is added,
 * removed or made stricter only in a new version, so `openai@1` judges the same way in every
 * toolrun release and a CI job can pin it.
 */
export const LINT_TARGETS: LintTarget[] = [anthropic, openai, gemini, geminiCli, cursor, vscode, windsurf, codex];

/**
 * A table's earlier version, kept so a pin of it judges as it did: the same checks, with the rules
 * made stricter since at their old severity (the verdict, pass or fail, is the old one).
 */
function earlierVersion(target: LintTarget, version: number, severities: Record<string, Severity>): LintTarget {
  return { ...target, version, check: (servers) => target.check(servers).map((finding) => (finding.rule in severities ? { ...finding, severity: severities[finding.rule]! } : finding)) };
}

/** The versions before the latest, reached only by a pin (`--target gemini@1`). */
const EARLIER_TARGETS: LintTarget[] = [
  // gemini@2: a non-string enum fails the whole request (issue 47); it was a warning in @1.
  earlierVersion(gemini, 1, { 'gemini/enum-values': 'warning' }),
  // anthropic@2: a property key outside the API's pattern is its own 400 (issue 47); a warning in @1.
  earlierVersion(anthropic, 1, { 'anthropic/property-key': 'warning' }),
];

/** Targets run only when named (`--target apps`): they change how lint connects. */
const NAMED_ONLY_TARGETS: LintTarget[] = [apps];

export function targetNames(): string[] {
  return [...LINT_TARGETS, ...NAMED_ONLY_TARGETS, ...EARLIER_TARGETS].map((target) => `${target.name}@${target.version}`);
}

/** `NAME@VERSION`, or `NAME` for its latest version; undefined when there is none. */
export function findTarget(spelled: string): LintTarget | undefined {
  const [name, version] = spelled.toLowerCase().split('@');
  return [...LINT_TARGETS, ...NAMED_ONLY_TARGETS, ...EARLIER_TARGETS]
    .filter((target) => target.name === name && (version === undefined || String(target.version) === version))
    .sort((a, b) => b.version - a.version)[0];
}
