import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolrunConfig } from '../config/config-types.js';
import { resolveServer } from '../config/resolve-server.js';
import { cacheDirectory } from './cache-directory.js';

/**
 * Which server offers which tool (SPEC §12), so `exec get-sum` with ten servers configured starts
 * the one that has it, not all ten. Kept in the user's cache directory, one entry per server keyed
 * by a hash of its resolved entry (command, args, env, url, headers…): an edited entry is a new,
 * unknown server. Only tool names are stored. A hint, never the truth: the caller checks the live
 * tools/list and falls back to every server when the hint is wrong.
 */
interface IndexFile {
  version: 1;
  servers: Record<string, { tools: string[]; updated: string }>;
}

const MAX_ENTRIES = 500;

export class ToolIndex {
  readonly #file: string;
  readonly #config: ToolrunConfig;
  readonly #env: NodeJS.ProcessEnv;
  #data: IndexFile | undefined;

  constructor(config: ToolrunConfig, env: NodeJS.ProcessEnv) {
    this.#config = config;
    this.#env = env;
    this.#file = join(cacheDirectory(env), 'tool-index.json');
  }

  /**
   * The servers to start for a plain tool name: those the index says offer it, and those it knows
   * nothing about (new or edited entries), in config order. All of them when the index is empty.
   */
  serversFor(toolName: string): string[] {
    const data = this.#read();
    return Object.keys(this.#config.servers).filter((name) => {
      const entry = this.#entryKey(name);
      const known = entry ? data.servers[entry] : undefined;
      return !known || known.tools.includes(toolName);
    });
  }

  /** Records what a server offers now (its live tools/list). */
  record(servers: Array<{ name: string; tools: string[] }>): void {
    if (servers.length === 0) return;
    const data = this.#read();
    let changed = false;
    for (const server of servers) {
      const entry = this.#entryKey(server.name);
      if (!entry) continue;
      const previous = data.servers[entry];
      if (previous && previous.tools.length === server.tools.length && previous.tools.every((tool, index) => tool === server.tools[index])) continue;
      data.servers[entry] = { tools: server.tools, updated: new Date().toISOString() };
      changed = true;
    }
    if (changed) this.#write(data);
  }

  /** A hash of the server's resolved entry; undefined when it does not resolve (an unset ${VAR}). */
  #entryKey(name: string): string | undefined {
    const raw = this.#config.servers[name];
    if (!raw) return undefined;
    try {
      const { protocol: _protocol, ...spec } = resolveServer(this.#config, raw, this.#env) as unknown as Record<string, unknown>;
      return createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 32);
    } catch {
      return undefined;
    }
  }

  #read(): IndexFile {
    if (this.#data) return this.#data;
    try {
      const parsed = JSON.parse(readFileSync(this.#file, 'utf8')) as IndexFile;
      this.#data = parsed?.version === 1 && typeof parsed.servers === 'object' && parsed.servers ? parsed : { version: 1, servers: {} };
    } catch {
      // Missing or unreadable: an empty index (every server is unknown, so all are started).
      this.#data = { version: 1, servers: {} };
    }
    return this.#data;
  }

  #write(data: IndexFile): void {
    // Bounded: the oldest entries (servers long gone from any config) go first.
    const entries = Object.entries(data.servers)
      .sort((a, b) => b[1].updated.localeCompare(a[1].updated))
      .slice(0, MAX_ENTRIES);
    data.servers = Object.fromEntries(entries);
    try {
      mkdirSync(join(this.#file, '..'), { recursive: true, mode: 0o700 });
      const temporary = `${this.#file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(data), { mode: 0o600 });
      // Atomic: two commands writing at once leave one whole file, never a torn one.
      renameSync(temporary, this.#file);
    } catch {
      // A read-only home: the index is an optimization, toolrun works without it.
    }
  }
}
