import { lazyCrypto } from '../lazy-crypto.js';
import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { ToolrunConfig } from '../config/config-types.js';
import { resolveServer, type ServerSpec } from '../config/resolve-server.js';
import { cacheDirectory, trustedCacheFolder, type CacheNote } from './cache-directory.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import { CacheKey } from './cache-key.js';
import type { ProtocolEra } from '../protocol/protocol-era.js';

/**
 * Which server offers which tool (SPEC §12), so `exec get-sum` with ten servers configured starts
 * the one that has it, not all ten. Kept in the user's cache directory, one entry per server keyed
 * by a hash of its resolved entry (command, args, env, url, headers…) and of the files it runs (their
 * size and time): an edited entry or server script is a new, unknown server. Only tool names are
 * stored. A hint, never the truth: the caller checks the live tools/list and falls back to every
 * server when the hint is wrong.
 *
 * What a server that is not started would answer cannot be checked, so an entry is believed only
 * when nothing says it may be wrong (issue #19 item 13: a stale entry made another server answer on
 * every run): it carries an HMAC under this user's cache key (an edited or planted entry is unknown),
 * its shape is checked (a corrupt one is unknown, and rewritten), and it is at most a day old (a
 * change the key cannot see — a remote server's deploy, an npx package update — is learnt within a day).
 */
interface IndexEntry {
  tools: string[];
  /** The protocol era the server spoke: which MCP client to load while it starts (src/mcp/connect/open-client.ts). */
  era?: ProtocolEra;
  updated: string;
  mac: string;
}

/** What a live connection tells the index of its server. */
export interface IndexedServer {
  name: string;
  tools: string[];
  era?: ProtocolEra;
}

interface IndexFile {
  version: 2;
  servers: Record<string, IndexEntry>;
}

const MAX_ENTRIES = 500;
/** 500 servers of a few hundred tools each; a bigger file is not toolrun's. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** An unchanged entry is written again when this old, so a server in daily use never expires. */
const REFRESH_AFTER_MS = MAX_AGE_MS / 4;

export class ToolIndex {
  readonly #top: string;
  readonly #config: ToolrunConfig;
  readonly #env: NodeJS.ProcessEnv;
  readonly #note: CacheNote | undefined;
  #data: IndexFile | undefined;
  /** Entries were dropped when read (corrupt): the next record writes the file even if nothing else changed. */
  #dirty = false;

  constructor(config: ToolrunConfig, env: NodeJS.ProcessEnv, note?: CacheNote) {
    this.#config = config;
    this.#env = env;
    this.#note = note;
    this.#top = cacheDirectory(env);
  }

  /**
   * The servers to start for a plain tool name: those the index says offer it, and those it knows
   * nothing about (new, edited, expired or unverifiable entries), in config order. All of them when
   * the index is empty or unusable.
   */
  serversFor(toolName: string): string[] {
    const names = Object.keys(this.#config.servers);
    try {
      return names.filter((name) => {
        const tools = this.#believedTools(this.#entryKey(name));
        return !tools || tools.includes(toolName);
      });
    } catch {
      return names;
    }
  }

  /**
   * The tools a server offered when last listed, if the index believes it (shell completion, SPEC
   * §17: offered without starting the server); undefined for a server never indexed. Never throws.
   */
  knownTools(serverName: string): string[] | undefined {
    try {
      return this.#believedTools(this.#entryKey(serverName));
    } catch {
      return undefined;
    }
  }

  /**
   * The protocol era the server spoke when last connected, if the index believes it; undefined when
   * unknown. A hint for what to load while the server starts: the handshake still finds out. Never throws.
   */
  knownEra(serverName: string): ProtocolEra | undefined {
    try {
      return this.#believedEntry(this.#entryKey(serverName))?.era;
    } catch {
      return undefined;
    }
  }

  /** Records what a server offers now (its live tools/list) and the era it spoke. Never throws: the index only saves time. */
  record(servers: IndexedServer[]): void {
    if (servers.length === 0) return;
    try {
      // Read again: the file may have changed while this command connected (another toolrun recorded
      // its servers), and what it wrote must not be lost to what was read before.
      this.#data = undefined;
      this.#record(servers);
    } catch {
      // A result already computed is never lost to the index.
    }
  }

  #record(servers: IndexedServer[]): void {
    const data = this.#read();
    const now = Date.now();
    let changed = this.#dirty;
    for (const server of servers) {
      const entryKey = this.#entryKey(server.name);
      if (!entryKey) continue;
      const previous = this.#believedEntry(entryKey, now - REFRESH_AFTER_MS);
      const era = server.era ?? previous?.era;
      if (previous && previous.era === era && previous.tools.length === server.tools.length && previous.tools.every((tool, index) => tool === server.tools[index])) continue;
      const updated = new Date(now).toISOString();
      data.servers[entryKey] = { tools: server.tools, ...(era ? { era } : {}), updated, mac: '' };
      changed = true;
    }
    if (changed) this.#write(data, now);
  }

  /** The tools of a believable entry (see the class comment); undefined when unknown. */
  #believedTools(entryKey: string | undefined, notBefore?: number): string[] | undefined {
    return this.#believedEntry(entryKey, notBefore)?.tools;
  }

  #believedEntry(entryKey: string | undefined, notBefore = Date.now() - MAX_AGE_MS): IndexEntry | undefined {
    const entry = entryKey ? this.#read().servers[entryKey] : undefined;
    if (!entry) return undefined;
    const updated = Date.parse(entry.updated);
    if (!(updated >= notBefore && updated <= Date.now() + 60_000)) return undefined;
    const key = this.#key(false);
    return key && key.verify(entry.mac, ...signedParts(entryKey!, entry)) ? entry : undefined;
  }

  /**
   * A hash of the server's resolved entry and of the files it names; undefined when it does not
   * resolve (an unset ${VAR}).
   */
  #entryKey(name: string): string | undefined {
    const raw = this.#config.servers[name];
    if (!raw) return undefined;
    let spec: ServerSpec;
    try {
      spec = resolveServer(this.#config, raw, this.#env);
    } catch {
      return undefined;
    }
    const { protocol: _protocol, ...rest } = spec as unknown as Record<string, unknown>;
    return lazyCrypto()
      .createHash('sha256')
      .update(JSON.stringify(rest))
      .update(spec.transport === 'stdio' ? filesOf(spec).join('\0') : '')
      .digest('hex')
      .slice(0, 32);
  }

  #key(create: boolean): CacheKey | undefined {
    const folder = trustedCacheFolder(this.#top, { create, note: this.#note });
    return folder ? CacheKey.of(folder, create) : undefined;
  }

  #read(): IndexFile {
    if (this.#data) return this.#data;
    this.#data = { version: 2, servers: {} };
    const folder = trustedCacheFolder(this.#top, { create: false, note: this.#note });
    const bytes = folder && readCacheFile(join(folder, 'tool-index.json'), MAX_FILE_BYTES);
    if (!bytes) return this.#data;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      // Torn or not JSON: an empty index, written whole on the next record.
      this.#dirty = true;
      return this.#data;
    }
    const servers = (parsed as { version?: unknown; servers?: unknown })?.version === 2 ? (parsed as { servers?: unknown }).servers : undefined;
    if (!isRecord(servers)) {
      this.#dirty = true;
      return this.#data;
    }
    for (const [entryKey, entry] of Object.entries(servers)) {
      // The key's shape too: `__proto__` must not become the prototype of `servers`.
      if (/^[0-9a-f]{32}$/.test(entryKey) && isIndexEntry(entry)) this.#data.servers[entryKey] = entry;
      else this.#dirty = true;
    }
    return this.#data;
  }

  #write(data: IndexFile, now: number): void {
    const folder = trustedCacheFolder(this.#top, { create: true, note: this.#note });
    const key = this.#key(true);
    if (!folder || !key) return;
    // Entries of this run are signed; others are kept only when they verify (a planted one goes).
    const servers: Array<[string, IndexEntry]> = [];
    for (const [entryKey, entry] of Object.entries(data.servers)) {
      const signed = signedParts(entryKey, entry);
      if (entry.mac === '') servers.push([entryKey, { ...entry, mac: key.sign(...signed) }]);
      else if (key.verify(entry.mac, ...signed) && Date.parse(entry.updated) >= now - MAX_AGE_MS) servers.push([entryKey, entry]);
    }
    // Bounded: the oldest entries (servers long gone from any config) go first.
    servers.sort((a, b) => b[1].updated.localeCompare(a[1].updated));
    data.servers = Object.fromEntries(servers.slice(0, MAX_ENTRIES));
    // Atomic: two commands writing at once leave one whole file, never a torn one.
    if (writeCacheFile(join(folder, 'tool-index.json'), JSON.stringify(data))) this.#dirty = false;
  }
}

/** What an entry's MAC covers; the era only when there is one, so entries written before it verify still. */
function signedParts(entryKey: string, entry: IndexEntry): string[] {
  return [entryKey, entry.updated, JSON.stringify(entry.tools), ...(entry.era ? [entry.era] : [])];
}

/**
 * Size and time of the files a stdio server runs (its command and arguments that name existing
 * files, relative to its cwd): editing the server's script makes it a new, unknown server.
 */
function filesOf(spec: Extract<ServerSpec, { transport: 'stdio' }>): string[] {
  const files: string[] = [];
  for (const word of [spec.command, ...spec.args].slice(0, 32)) {
    if (!word || word.startsWith('-') || word.length > 4096 || word.includes('\0')) continue;
    const path = isAbsolute(word) ? word : resolve(spec.cwd, word);
    try {
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats?.isFile()) files.push(`${path}:${stats.size}:${stats.mtimeMs}`);
    } catch {
      // Not a file toolrun may look at (EACCES, ENOTDIR): not part of the key.
    }
  }
  return files;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndexEntry(value: unknown): value is IndexEntry {
  if (!isRecord(value)) return false;
  const { tools, era, updated, mac } = value;
  return (
    Array.isArray(tools) &&
    tools.every((tool) => typeof tool === 'string') &&
    (era === undefined || era === 'legacy' || era === 'modern') &&
    typeof updated === 'string' &&
    !Number.isNaN(Date.parse(updated)) &&
    typeof mac === 'string' &&
    /^[0-9a-f]{64}$/.test(mac)
  );
}
