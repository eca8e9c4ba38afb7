import type { LintDelta } from '../lint/lint-delta.js';
import type { ApiDiff } from '../snapshot/diff-api.js';
import type { Style } from './style.js';

/**
 * `mcp diff`'s result for a person: one line per change, breaking ones first and marked, each with
 * its reason, then a summary line naming both sides.
 */
export function formatApiDiff(diff: ApiDiff, sides: { before: string; after: string }, style: Style, lint?: LintDelta): string {
  const lines = diff.changes.map((change) => `${change.breaking ? style.red('BREAKING') : style.dim('ok      ')}  ${change.path} — ${change.reason}`);
  const breaking = diff.changes.filter((change) => change.breaking).length;
  const others = diff.changes.length - breaking;
  const between = `(${sides.before} → ${sides.after})`;
  if (diff.changes.length === 0) lines.push(`no changes ${between}`);
  else lines.push(`${breaking} breaking change${breaking === 1 ? '' : 's'}, ${others} other${others === 1 ? '' : 's'} ${between}`);
  if (lint) lines.push(...formatLintDelta(lint, style));
  return lines.join('\n');
}

/** `+2,310 tokens; newly breaks gemini: $defs in search.inputSchema`, one line per new finding, then the fixed ones. */
function formatLintDelta(lint: LintDelta, style: Style): string[] {
  const lines: string[] = [];
  if (lint.tokens && lint.tokens.delta !== 0) {
    const sign = lint.tokens.delta > 0 ? '+' : '−';
    lines.push(
      `${sign}${Math.abs(lint.tokens.delta).toLocaleString('en-US')} tokens in the changed tool definitions (${lint.tokens.before.toLocaleString('en-US')} → ${lint.tokens.after.toLocaleString('en-US')}, o200k_base)`,
    );
  }
  for (const finding of lint.added) {
    const verb = finding.severity === 'error' ? style.red(`newly breaks ${finding.target}`) : style.yellow(`new ${finding.target} warning`);
    lines.push(`${verb}: ${finding.tool ?? finding.server} ${finding.path} — ${finding.message}`);
  }
  for (const finding of lint.removed) lines.push(`${style.green(`fixed for ${finding.target}`)}: ${finding.tool ?? finding.server} ${finding.path} — ${finding.message}`);
  return lines;
}
