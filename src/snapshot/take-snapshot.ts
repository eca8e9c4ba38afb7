import { listAllPages } from '../mcp/list-pages.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { buildSnapshot, sortKeysDeep } from './build-snapshot.js';
import { skillsCapabilityOf } from '../extensions/skills/wire.js';
import { SECTIONS, type ApiSnapshot, type SectionName } from './snapshot-types.js';

/** A list request that failed: which one, for the command's error line. */
export class ListFailedError extends Error {
  constructor(
    readonly method: string,
    cause: unknown,
  ) {
    super(`${method} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'ListFailedError';
  }
}

/**
 * The API of a connected server, either era, stdio or HTTP: every page of tools/list,
 * resources/list, resources/templates/list and prompts/list as the server sent them (not the
 * connection's checked tool list, which leaves broken definitions out: a snapshot records what a
 * client is offered). A capability the server does not advertise is an empty list, not an error, as
 * is a list the server answers with -32601 (Method not found): server-postgres 0.6.2 advertises
 * resources and has no resources/templates/list.
 */
export async function takeSnapshot(connection: ServerConnection, options: { signal?: AbortSignal; timeout?: number; only?: SectionName[] }): Promise<ApiSnapshot> {
  const lists: Partial<Record<SectionName, unknown[]>> = {};
  await Promise.all(
    SECTIONS.map(async ({ list, method, capability }) => {
      // `only`: the lists the caller reads (lint reads tools alone); the others are left empty, unasked,
      // so a failing list the caller never reads (a database behind resources/list down) cannot fail it.
      if (!connection.capabilities?.[capability] || (options.only && !options.only.includes(list))) return void (lists[list] = []);
      lists[list] = await listAllPages(
        method,
        async (cursor) => {
          const page = await connection.client.request(method, cursor === undefined ? undefined : { cursor }, options);
          const items = page[list];
          if (!Array.isArray(items)) throw new Error(`${method} answered without a "${list}" array (found ${items === undefined ? 'nothing' : typeof items})`);
          const nextCursor = page.nextCursor;
          if (nextCursor !== undefined && typeof nextCursor !== 'string') throw new Error(`${method} answered with a nextCursor that is not a string (${typeof nextCursor})`);
          return { items: items as unknown[], nextCursor };
        },
        { methodNotFoundIsEmpty: true },
      ).catch((error: unknown) => {
        throw new ListFailedError(method, error);
      });
    }),
  );
  const snapshot = buildSnapshot({ serverName: connection.serverInfo?.name ?? connection.name, protocolVersion: connection.protocolVersion, lists }) as ApiSnapshot;
  // The Skills extension, when declared: its module loads only then (SPEC §23).
  if (!options.only && skillsCapabilityOf(connection.capabilities as Record<string, unknown>) !== undefined) {
    const { snapshotSkills } = await import('../extensions/skills/skills-api.js');
    snapshot.skills = await snapshotSkills(connection.client, options).catch((error: unknown) => {
      throw new ListFailedError('skills/list', error);
    });
    return sortKeysDeep(snapshot) as ApiSnapshot;
  }
  return snapshot;
}
