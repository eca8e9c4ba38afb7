import { lazyCrypto } from '../lazy-crypto.js';
import { join } from 'node:path';
import { publishFileOnce } from '../files/write-file-safely.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';

/**
 * This user's cache key: 32 random bytes in `key` (0600) in toolrun's cache folder. Cache entries
 * that let toolrun skip work (a config already checked, the server that has a tool) carry an HMAC
 * under it, so an entry counts only when this user's toolrun wrote it — never because a file merely
 * exists or parses (issue #19 item 13: a planted "valid" digest made toolrun act on an invalid config).
 */
/** Read once per run: the config memo and the tool index share it. */
const loaded = new Map<string, CacheKey>();

export class CacheKey {
  readonly #key: Buffer;
  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** The key of the cache folder `folder` (already checked), made when `create` and missing; undefined when unusable. */
  static of(folder: string, create: boolean): CacheKey | undefined {
    return loaded.get(folder) ?? CacheKey.#load(folder, create);
  }

  static #load(folder: string, create: boolean): CacheKey | undefined {
    const path = join(folder, 'key');
    let hex = readKey(path);
    if (!hex && create) {
      const fresh = lazyCrypto().randomBytes(32).toString('hex');
      try {
        publishFileOnce(path, Buffer.from(fresh), 0o600);
      } catch {
        // Another run made it first (EEXIST): its key is read below; a read-only folder: none.
      }
      hex = readKey(path);
      // A broken key (truncated, readable by others, a link): replaced; what was signed with it is checked again.
      if (!hex && writeCacheFile(path, fresh)) hex = readKey(path);
    }
    if (!hex) return undefined;
    const key = new CacheKey(Buffer.from(hex, 'hex'));
    loaded.set(folder, key);
    return key;
  }

  /** The HMAC of the parts (joined unambiguously), hex. */
  sign(...parts: string[]): string {
    const hmac = lazyCrypto().createHmac('sha256', this.#key);
    for (const part of parts) hmac.update(`${Buffer.byteLength(part)}:`).update(part);
    return hmac.digest('hex');
  }

  /** Whether `mac` is the HMAC of the parts. */
  verify(mac: unknown, ...parts: string[]): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return lazyCrypto().timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(this.sign(...parts), 'hex'));
  }
}

function readKey(path: string): string | undefined {
  const text = readCacheFile(path, 64, { privateOnly: true })?.toString('latin1');
  return text && /^[0-9a-f]{64}$/.test(text) ? text : undefined;
}
