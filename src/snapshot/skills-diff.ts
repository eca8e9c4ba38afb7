import { pathSegment, sameJson, type ApiChange } from './api-change.js';
import type { Skill } from '../extensions/skills/wire.js';

// Skills in `mcp diff` (SPEC §23): what changed between two snapshots' `skills` lists and whether it
// breaks a host that approved the old content (skills.mdx#verification-on-read: a changed
// `resources` set revokes any content-bound approval). Kept apart from skills-api.ts so a diff loads
// no YAML parser nor client code.

/** The changes between two snapshots' skills; `undefined` lists are not compared. */
export function diffSkills(before: unknown[] | undefined, after: unknown[] | undefined): ApiChange[] {
  if (before === undefined && after === undefined) return [];
  const byUri = (items: unknown[] | undefined) => new Map((items ?? []).filter((item): item is Skill => typeof (item as Skill)?.uri === 'string').map((item) => [item.uri, item]));
  const mapBefore = byUri(before);
  const mapAfter = byUri(after);
  const changes: ApiChange[] = [];
  for (const [uri, skill] of mapBefore) {
    const path = `skills${pathSegment(uri)}`;
    const next = mapAfter.get(uri);
    if (!next) {
      changes.push({ kind: 'removed', what: 'skill', path, breaking: true, reason: 'skill removed: hosts that load it by its URI fail' });
      continue;
    }
    changes.push(...diffFiles(skill, next, path), ...diffFrontmatter(skill.frontmatter, next.frontmatter, `${path}.frontmatter`));
  }
  for (const uri of mapAfter.keys()) if (!mapBefore.has(uri)) changes.push({ kind: 'added', what: 'skill', path: `skills${pathSegment(uri)}`, breaking: false, reason: 'new skill' });
  return changes;
}

const REAPPROVAL = 'a host that approved the old files must ask again (skills.mdx#verification-on-read)';

function diffFiles(before: Skill, after: Skill, path: string): ApiChange[] {
  if (sameJson(before.resources, after.resources)) return [];
  const at = `${path}.resources`;
  if (after.resources === 'dynamic')
    return [
      {
        kind: 'changed',
        what: 'skillFile',
        path: at,
        breaking: true,
        before: 'files with digests',
        after: 'dynamic',
        reason: `the skill no longer publishes digests ("dynamic"): its content can no longer be verified; ${REAPPROVAL}`,
      },
    ];
  if (before.resources === 'dynamic')
    return [{ kind: 'changed', what: 'skillFile', path: at, breaking: false, before: 'dynamic', after: 'files with digests', reason: 'the skill now publishes its files with digests' }];
  const files = (skill: Skill) => new Map((skill.resources as Array<{ uri: string; digest: string; size: number }>).map((file) => [file.uri, file]));
  const [filesBefore, filesAfter] = [files(before), files(after)];
  const changes: ApiChange[] = [];
  for (const [uri, file] of filesBefore) {
    const next = filesAfter.get(uri);
    if (!next) changes.push({ kind: 'removed', what: 'skillFile', path: `${at}${pathSegment(uri)}`, breaking: true, reason: `file removed from the skill: ${REAPPROVAL}` });
    else if (next.digest !== file.digest || next.size !== file.size)
      changes.push({ kind: 'changed', what: 'skillFile', path: `${at}${pathSegment(uri)}`, breaking: true, before: file.digest, after: next.digest, reason: `file content changed: ${REAPPROVAL}` });
  }
  for (const uri of filesAfter.keys())
    if (!filesBefore.has(uri)) changes.push({ kind: 'added', what: 'skillFile', path: `${at}${pathSegment(uri)}`, breaking: true, reason: `file added to the skill: ${REAPPROVAL}` });
  return changes;
}

/** Frontmatter fields: informational, except `allowed-tools`, a request for wider permissions on the host (skills.mdx#security-considerations). */
function diffFrontmatter(before: Record<string, unknown>, after: Record<string, unknown>, path: string): ApiChange[] {
  const changes: ApiChange[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (sameJson(before[field], after[field])) continue;
    const kind = before[field] === undefined ? 'added' : after[field] === undefined ? 'removed' : 'changed';
    const permissions = field === 'allowed-tools' && after[field] !== undefined;
    changes.push({
      kind,
      what: field === 'description' ? 'description' : 'field',
      path: `${path}${pathSegment(field)}`,
      breaking: permissions,
      before: before[field],
      after: after[field],
      reason: permissions ? 'allowed-tools changed: the skill asks for other tool permissions on the host, which a user must approve again' : `${field} ${kind}`,
    });
  }
  return changes;
}
