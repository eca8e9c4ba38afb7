import { compareText } from '../snapshot/build-snapshot.js';
import { pathSegment, sameJson } from '../snapshot/api-change.js';
import { diffApis } from '../snapshot/diff-api.js';
import type { ApiItem, ApiSource } from '../snapshot/snapshot-types.js';
import { sha256OfJson } from './canonical-json.js';
import { LOCKED_SECTIONS, type LockedItem, type LockedServer, type LockedSection } from './lock-types.js';

/** One difference between the lock and the servers now, with the server it is on (SPEC §24). */
export interface LockChange {
  server: string;
  kind: 'added' | 'removed' | 'changed' | 'renamed';
  /** mcp diff's `what`, or `server` (a server gone, its version), `launch` (how it is started), `finding` (a new trust finding). */
  what: string;
  /** `SERVER/` then mcp diff's path: `memory/tools.read_graph.description`. */
  path: string;
  breaking: boolean;
  before?: unknown;
  after?: unknown;
  reason: string;
}

export interface LockCheck {
  /** Breaking changes first, then the others; each group by server, in mcp diff's order within one. */
  changes: LockChange[];
  /** Not changes: a remote server that reports another version than the pinned one. */
  warnings: string[];
}

/** mcp diff's `what` of a change to a whole item (added, removed), not to a part of one. */
const ITEM_WHATS = new Set(['tool', 'prompt', 'resourceTemplate', 'skill']);

const INSTRUCTIONS = "a change to the model's instructions";

/**
 * The lock's entries (`pinned`) against the same servers now (`current`, built by buildLockedServer):
 * each tool, prompt, template and skill compared as `mcp diff` compares APIs (src/snapshot/diff-api.ts),
 * then renames and moves judged over the whole set — a removed item and an added one with the same
 * definition but its name are one change, on one server or across two. A pinned server missing from
 * `current` is a change (gone from the config); a server only in `current` is the caller's (unpinned).
 */
export function checkLock(pinned: Record<string, LockedServer>, current: Record<string, LockedServer>): LockCheck {
  const changes: LockChange[] = [];
  const warnings: string[] = [];
  for (const server of Object.keys(pinned).sort(compareText)) {
    const before = pinned[server]!;
    const after = current[server];
    if (!after) {
      changes.push({ server, kind: 'removed', what: 'server', path: `${server}/`, breaking: true, reason: 'server pinned in the lock is no longer configured' });
      continue;
    }
    changes.push(...identityChanges(server, before, after, warnings), ...apiChanges(server, before, after), ...findingChanges(server, before, after));
  }
  const judged = judgeRenames(changes, pinned, current);
  return { changes: [...judged.filter((change) => change.breaking), ...judged.filter((change) => !change.breaking)], warnings };
}

function identityChanges(server: string, before: LockedServer, after: LockedServer, warnings: string[]): LockChange[] {
  const changes: LockChange[] = [];
  if (!sameJson(before.launch, after.launch)) {
    changes.push({
      server,
      kind: 'changed',
      what: 'launch',
      path: `${server}/launch`,
      breaking: false,
      before: before.launch,
      after: after.launch,
      reason: 'the server is started another way (command, args or URL changed): other code may run',
    });
  }
  // Unknown on one side (npx ran it from the project or a global install) is not a change.
  if (sameJson(before.launch, after.launch) && before.package?.resolved && after.package?.resolved && before.package.resolved !== after.package.resolved) {
    changes.push({
      server,
      kind: 'changed',
      what: 'launch',
      path: `${server}/package.resolved`,
      breaking: false,
      before: before.package.resolved,
      after: after.package.resolved,
      reason: `${after.package.runner} resolved ${after.package.name} to ${after.package.resolved}, pinned ${before.package.resolved}: a new release runs; pin the version, or approve it with toolrun lock --update ${server}`,
    });
  }
  if (sameJson(before.launch, after.launch) && before.image?.resolved && after.image?.resolved && before.image.resolved !== after.image.resolved) {
    changes.push({
      server,
      kind: 'changed',
      what: 'launch',
      path: `${server}/image.resolved`,
      breaking: false,
      before: before.image.resolved,
      after: after.image.resolved,
      reason: `${after.image.ref} is now the image ${after.image.resolved}, pinned ${before.image.resolved}: another image runs; pin it by digest, or approve it with toolrun lock --update ${server}`,
    });
  }
  if (before.server.name !== after.server.name) {
    changes.push({
      server,
      kind: 'changed',
      what: 'server',
      path: `${server}/server.name`,
      breaking: false,
      before: before.server.name,
      after: after.server.name,
      reason: 'the server reports another name: another server answers',
    });
  }
  if (before.server.version !== after.server.version) {
    const versions = `pinned ${before.server.version ?? '(none)'}, now ${after.server.version ?? '(none)'}`;
    // A remote server is deployed by its owner at any time; its tools' hashes say whether what the model sees changed.
    if ('url' in after.launch)
      warnings.push(`${server} reports version ${after.server.version ?? '(none)'} (${versions.split(',')[0]}): a new deployment of a remote server; its tools are checked one by one`);
    else
      changes.push({
        server,
        kind: 'changed',
        what: 'server',
        path: `${server}/server.version`,
        breaking: false,
        before: before.server.version,
        after: after.server.version,
        reason: `the server reports another version (${versions}): its launch resolved to a new release; pin the version, or approve it with toolrun lock --update ${server}`,
      });
  }
  return changes;
}

/** The pinned definitions as an API snapshot, for mcp diff's comparison. */
function asSource(label: string, entry: LockedServer): ApiSource {
  const definitions = (items: LockedItem[]) => items.map((item) => item.definition as ApiItem);
  return {
    label,
    snapshot: {
      toolrunSnapshot: 1,
      server: { name: entry.server.name },
      tools: definitions(entry.tools),
      prompts: definitions(entry.prompts),
      resourceTemplates: definitions(entry.resourceTemplates),
      resources: [],
      skills: definitions(entry.skills),
    },
  };
}

function apiChanges(server: string, before: LockedServer, after: LockedServer): LockChange[] {
  if (LOCKED_SECTIONS.every(({ list }) => sameHashes(before[list], after[list]))) return [];
  return diffApis(asSource('toolrun.lock', before), asSource(server, after)).changes.map((change) => {
    const description = change.what === 'description' || /\.description$/.test(change.path);
    const item = ITEM_WHATS.has(change.what);
    let reason = change.reason;
    if (description) reason = `description ${change.kind}: ${INSTRUCTIONS}`;
    else if (change.kind === 'added' && item) reason = `${change.reason}, not in the lock: the model would see it without anyone approving it`;
    return { server, kind: change.kind, what: change.what, path: `${server}/${change.path}`, breaking: change.breaking, ...pick(change, 'before', 'after'), reason };
  });
}

function sameHashes(a: LockedItem[], b: LockedItem[]): boolean {
  return a.length === b.length && a.every((item, index) => item.key === b[index]!.key && item.sha256 === b[index]!.sha256);
}

function findingChanges(server: string, before: LockedServer, after: LockedServer): LockChange[] {
  const keyOf = (finding: LockedServer['findings'][number]) => `${finding.rule}|${finding.tool ?? ''}|${finding.path}`;
  const known = new Set(before.findings.map(keyOf));
  return after.findings
    .filter((finding) => !known.has(keyOf(finding)))
    .map((finding) => ({
      server,
      kind: 'added' as const,
      what: 'finding',
      path: `${server}/${finding.tool === undefined ? '' : `tools${pathSegment(finding.tool)}`}${finding.path.replace(/^\$/, '')}`,
      breaking: false,
      reason: `new ${finding.rule} finding: ${finding.message}`,
    }));
}

/**
 * A removed item and an added one of the same list whose definitions are the same but for the name
 * are one change: renamed (same server) or moved (another server). Judged over every server.
 */
function judgeRenames(changes: LockChange[], pinned: Record<string, LockedServer>, current: Record<string, LockedServer>): LockChange[] {
  const itemOf = (change: LockChange, entries: Record<string, LockedServer>) => {
    for (const { list, what } of LOCKED_SECTIONS) {
      if (change.what !== what) continue;
      const entry = entries[change.server]?.[list].find((item) => change.path === `${change.server}/${list}${pathSegment(item.key)}`);
      if (entry) return { list, item: entry };
    }
    return undefined;
  };
  const removed = changes.flatMap((change) => (change.kind === 'removed' ? [{ change, found: itemOf(change, pinned) }] : [])).filter((entry) => entry.found);
  const added = changes.flatMap((change) => (change.kind === 'added' ? [{ change, found: itemOf(change, current) }] : [])).filter((entry) => entry.found);
  const dropped = new Set<LockChange>();
  const renames: LockChange[] = [];
  for (const gone of removed) {
    const body = bodyHash(gone.found!.list, gone.found!.item);
    const match = added.find((entry) => !dropped.has(entry.change) && entry.found!.list === gone.found!.list && bodyHash(entry.found!.list, entry.found!.item) === body);
    if (!match) continue;
    dropped.add(gone.change).add(match.change);
    const [from, to] = [gone.change.server, match.change.server];
    const [oldName, newName] = [gone.found!.item.key, match.found!.item.key];
    const where = from === to ? `renamed to '${newName}'` : `moved to server '${to}'${oldName === newName ? '' : ` as '${newName}'`}`;
    renames.push({
      server: from,
      kind: 'renamed',
      what: gone.change.what,
      path: gone.change.path,
      breaking: true,
      before: `${from}/${oldName}`,
      after: `${to}/${newName}`,
      reason: `${where}, definition unchanged: calls by the old name fail, and the model sees it under a name no one approved`,
    });
  }
  const kept = changes.filter((change) => !dropped.has(change));
  // A rename sits where its removal was.
  return [...renames, ...kept].sort((a, b) => compareText(a.server, b.server));
}

/** The hash of a definition without its name: what stays the same across a rename. */
function bodyHash(list: LockedSection, item: LockedItem): string {
  const key = LOCKED_SECTIONS.find((section) => section.list === list)!.key;
  const { [key]: _name, ...body } = item.definition;
  return sha256OfJson(body);
}

function pick(change: { before?: unknown; after?: unknown }, ...fields: Array<'before' | 'after'>): Partial<LockChange> {
  const picked: Partial<LockChange> = {};
  for (const field of fields) if (change[field] !== undefined) picked[field] = change[field];
  return picked;
}
