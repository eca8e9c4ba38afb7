import type { ApiDiff } from '../snapshot/diff-api.js';
import type { Style } from './style.js';

/**
 * `mcp diff`'s result for a person: one line per change, breaking ones first and marked, each with
 * its reason, then a summary line naming both sides.
 */
export function formatApiDiff(diff: ApiDiff, sides: { before: string; after: string }, style: Style): string {
  const lines = diff.changes.map((change) => `${change.breaking ? style.red('BREAKING') : style.dim('ok      ')}  ${change.path} — ${change.reason}`);
  const breaking = diff.changes.filter((change) => change.breaking).length;
  const others = diff.changes.length - breaking;
  const between = `(${sides.before} → ${sides.after})`;
  if (diff.changes.length === 0) lines.push(`no changes ${between}`);
  else lines.push(`${breaking} breaking change${breaking === 1 ? '' : 's'}, ${others} other${others === 1 ? '' : 's'} ${between}`);
  return lines.join('\n');
}
