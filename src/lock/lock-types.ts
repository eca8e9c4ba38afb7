import type { ApiSnapshot } from '../snapshot/snapshot-types.js';

/**
 * `toolrun.lock` (SPEC §24): what the agent was approved to see, per server. Data like a snapshot:
 * one pure function (build-lock.ts) from the servers' APIs to bytes, keys and lists sorted.
 * docs/lock.md describes the format; enforcement (`serve --lock`, `tap --wrap --lock`) reads
 * `servers[NAME].tools[].{name, sha256, definition}` to hide a tool whose hash no longer matches and
 * to serve the pinned definition.
 */
export interface LockFile {
  toolrunLock: 1;
  /** By the config's (or the host's) name for each server. */
  servers: Record<string, LockedServer>;
}

export interface LockedServer {
  /** How it is started: command and args (secrets masked), or its URL (secrets masked). */
  launch: { command: string; args: string[] } | { url: string };
  /**
   * A package-runner launch (`npx`, `uvx`, `pnpm dlx`, `bunx`): the package, its version when the
   * launch names an exact one, and (npx) the version npx installed, read from its cache.
   */
  package?: { runner: string; spec: string; name: string; version?: string; resolved?: string };
  /**
   * A `docker run` launch: the image as written, its digest when the launch names one
   * (`image@sha256:…`), and the digest the engine resolved it to (`resolved`, docker-resolved.ts).
   */
  image?: { ref: string; digest?: string; resolved?: string };
  /** serverInfo as the server reported it at the handshake: the version its package resolved to. */
  server: { name: string; version?: string };
  tools: LockedItem[];
  prompts: LockedItem[];
  resourceTemplates: LockedItem[];
  skills: LockedItem[];
  /** The trust rules of `mcp lint` that fired when the lock was written (lock-findings.ts). */
  findings: LockedFinding[];
}

/**
 * One pinned definition: `sha256` is the hex SHA-256 of the canonical JSON (canonical-json.ts) of
 * `definition`, which is what the model sees of it. The item's name is `definition`'s own key field
 * (name, uriTemplate, uri), repeated beside the hash so a filter finds it without reading more.
 */
export interface LockedItem {
  key: string;
  sha256: string;
  definition: Record<string, unknown>;
}

export interface LockedFinding {
  rule: string;
  /** Absent for a finding about the server as a whole. */
  tool?: string;
  path: string;
  message: string;
}

/** The lists a lock pins (resources are content, not instructions to the model: not pinned). */
export const LOCKED_SECTIONS = [
  { list: 'tools', key: 'name', what: 'tool' },
  { list: 'prompts', key: 'name', what: 'prompt' },
  { list: 'resourceTemplates', key: 'uriTemplate', what: 'resourceTemplate' },
  { list: 'skills', key: 'uri', what: 'skill' },
] as const;

export type LockedSection = (typeof LOCKED_SECTIONS)[number]['list'];

/** What `lock` knows of one server once connected: the inputs of buildLockedServer. */
export interface ServerApi {
  name: string;
  launch: LockedServer['launch'];
  package?: LockedServer['package'];
  image?: LockedServer['image'];
  serverInfo: { name: string; version?: string };
  snapshot: Pick<ApiSnapshot, 'tools' | 'prompts' | 'resourceTemplates'> & { skills?: ApiSnapshot['skills'] };
}
