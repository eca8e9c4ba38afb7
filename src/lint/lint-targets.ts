import type { LintTarget } from './lint-types.js';
import { anthropic } from './targets/anthropic.js';
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

export function targetNames(): string[] {
  return LINT_TARGETS.map((target) => `${target.name}@${target.version}`);
}

/** `NAME@VERSION`, or `NAME` for its latest version; undefined when there is none. */
export function findTarget(spelled: string): LintTarget | undefined {
  const [name, version] = spelled.toLowerCase().split('@');
  return LINT_TARGETS.filter((target) => target.name === name && (version === undefined || String(target.version) === version)).sort((a, b) => b.version - a.version)[0];
}
