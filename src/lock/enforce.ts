import { resolve } from 'node:path';
import type { ApiItem } from '../snapshot/snapshot-types.js';
import { lockedDefinition } from './build-lock.js';
import { sha256OfJson } from './canonical-json.js';
import type { LockFile } from './lock-types.js';
import { readLockFile } from './read-lock.js';

/**
 * What a lock lets through (SPEC §24 enforcement): a server's tool is served only when the lock pins
 * that server and a tool of that name with the same hash (its name, title, description, schemas and
 * annotations: what the model reads). Anything else is held back with the reason, for the refusal a
 * client gets when it calls it anyway. Built once per tool list, so a message costs a Map lookup.
 */
export class LockFilter {
  readonly #pinned = new Map<string, Map<string, string>>();

  constructor(
    lock: LockFile,
    readonly file: string,
  ) {
    for (const [server, entry] of Object.entries(lock.servers)) this.#pinned.set(server, new Map(entry.tools.map((tool) => [tool.key, tool.sha256])));
  }

  pins(server: string): boolean {
    return this.#pinned.has(server);
  }

  /**
   * Why a call to `name` of `server` is refused before its definition is known (a client that calls
   * without listing): the server or the name is not pinned. Undefined: the lock pins that name.
   */
  refusalOfName(server: string, name: string): string | undefined {
    const tools = this.#pinned.get(server);
    if (!tools) return `server '${server}' is not pinned in ${this.file}`;
    if (!tools.has(name)) return `tool '${name}' was added to '${server}' since ${this.file} was written`;
    return undefined;
  }

  /** Why `tool` of `server` is not served (undefined: it is as pinned). */
  refusal(server: string, tool: ApiItem & { name: string }): string | undefined {
    const unknown = this.refusalOfName(server, tool.name);
    if (unknown) return unknown;
    const pinned = this.#pinned.get(server)!.get(tool.name);
    if (pinned !== sha256OfJson(lockedDefinition('tools', tool)))
      return `tool '${tool.name}' of '${server}' changed since ${this.file} was written (its description, schema or annotations: what the model is told)`;
    return undefined;
  }
}

/** `--lock [FILE]` / `--locked [FILE]`: the lock at FILE (relative to `cwd`) read now, as a filter; a missing or bad one is a UsageError (exit 2) before anything starts. */
export function openLockFilter(cwd: string, file: string): LockFilter {
  return new LockFilter(readLockFile(resolve(cwd, file), file), file);
}
