import { compareText, sortKeysDeep } from '../snapshot/build-snapshot.js';
import type { ApiItem } from '../snapshot/snapshot-types.js';
import { sha256OfJson } from './canonical-json.js';
import { LOCKED_SECTIONS, type LockedFinding, type LockedItem, type LockedServer, type LockFile, type LockedSection, type ServerApi } from './lock-types.js';

/** What of a tool the model sees, and the lock pins (SPEC §24): the other fields (icons, execution, _meta) are not hashed. */
const TOOL_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** The pinned definition of an item: a tool's six fields, the whole canonical item for the other lists. */
export function lockedDefinition(list: LockedSection, item: ApiItem): Record<string, unknown> {
  if (list !== 'tools') return sortKeysDeep(item) as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of TOOL_FIELDS) if (item[field] !== undefined) picked[field] = item[field];
  return sortKeysDeep(picked) as Record<string, unknown>;
}

export function lockedItems(list: LockedSection, items: ApiItem[] | undefined): LockedItem[] {
  const key = LOCKED_SECTIONS.find((section) => section.list === list)!.key;
  return (items ?? [])
    .map((item) => {
      const definition = lockedDefinition(list, item);
      return { key: String(definition[key]), sha256: sha256OfJson(definition), definition };
    })
    .sort((a, b) => compareText(a.key, b.key) || compareText(a.sha256, b.sha256));
}

/** One server's entry: identity, a hash per tool, prompt, template and skill, and the trust findings. */
export function buildLockedServer(api: ServerApi, findings: LockedFinding[]): LockedServer {
  return {
    launch: api.launch,
    ...(api.package ? { package: api.package } : {}),
    ...(api.image ? { image: api.image } : {}),
    server: { name: api.serverInfo.name, ...(api.serverInfo.version === undefined ? {} : { version: api.serverInfo.version }) },
    tools: lockedItems('tools', api.snapshot.tools),
    prompts: lockedItems('prompts', api.snapshot.prompts),
    resourceTemplates: lockedItems('resourceTemplates', api.snapshot.resourceTemplates),
    skills: lockedItems('skills', api.snapshot.skills),
    findings: [...findings].sort(compareFindings),
  };
}

export function compareFindings(a: LockedFinding, b: LockedFinding): number {
  return compareText(a.tool ?? '', b.tool ?? '') || compareText(a.rule, b.rule) || compareText(a.path, b.path) || compareText(a.message, b.message);
}

/** The lock of these servers' entries: the same entries give the same lock, whatever their order. */
export function buildLock(servers: Record<string, LockedServer>): LockFile {
  return sortKeysDeep({ toolrunLock: 1, servers }) as LockFile;
}

/** The lock's bytes: 2-space indented JSON, keys sorted, a newline at the end. */
export function formatLock(lock: LockFile): string {
  return `${JSON.stringify(sortKeysDeep(lock), null, 2)}\n`;
}
