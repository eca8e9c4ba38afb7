import type { LockCheck } from '../lock/check-lock.js';
import { spelledOut } from './format-lint-report.js';
import type { Style } from './style.js';

/**
 * `lock --check`'s result for a person, laid out as `mcp diff` prints (format-api-diff.ts): one line
 * per change, breaking ones first and marked, each with its reason, then a summary naming both sides.
 * A change that is not breaking is still a change to what was approved: `changed`, not `ok`.
 */
export function formatLockCheck(check: LockCheck, sides: { before: string; after: string }, style: Style): string {
  const lines = check.changes.map((change) => `${change.breaking ? style.red('BREAKING') : style.yellow('changed ')}  ${spelledOut(change.path)} — ${spelledOut(change.reason)}`);
  const breaking = check.changes.filter((change) => change.breaking).length;
  const others = check.changes.length - breaking;
  const between = `(${sides.before} → ${sides.after})`;
  if (check.changes.length === 0) lines.push(`no changes ${between}`);
  else lines.push(`${breaking} breaking change${breaking === 1 ? '' : 's'}, ${others} other${others === 1 ? '' : 's'} ${between}`);
  return lines.join('\n');
}
