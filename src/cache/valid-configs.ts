import { lazyCrypto } from '../lazy-crypto.js';
import { join } from 'node:path';
import type { ValidConfigMemo } from '../config/load-config.js';
import { cacheDirectory, trustedCacheFolder, type CacheNote } from './cache-directory.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import { CacheKey } from './cache-key.js';

/** Set by the build (scripts/build.js): a digest of the config schema and its validator. */
declare const __TOOLRUN_CONFIG_SCHEMA_DIGEST__: string | undefined;

/**
 * The config texts this build of toolrun already found valid, kept in the cache folder as one file
 * per text digest. Checking a config loads its validator (~5 ms of every run that reads one); the
 * same text against the same schema gets the same answer, so it is checked once. The schema's digest
 * is part of the key: a toolrun whose rules changed checks every config again. A file's existence
 * proves nothing (anyone could plant an empty one): it holds the HMAC of the schema digest and the
 * text under this user's cache key (cache-key.ts), written only after the check passed, so skipping
 * the check gives exactly what the check gave. Unbuilt (tests run from source) there is no digest,
 * and every config is checked.
 */
export function validConfigMemo(env: NodeJS.ProcessEnv, note?: CacheNote): ValidConfigMemo | undefined {
  const schemaDigest = typeof __TOOLRUN_CONFIG_SCHEMA_DIGEST__ === 'string' ? __TOOLRUN_CONFIG_SCHEMA_DIGEST__ : undefined;
  if (!schemaDigest) return undefined;
  const top = cacheDirectory(env);
  const entryName = (text: string) => lazyCrypto().createHash('sha256').update(schemaDigest).update('\0').update(text).digest('hex').slice(0, 32);
  return {
    has: (text) => {
      const root = trustedCacheFolder(top, { create: false, note });
      const folder = root && trustedCacheFolder(join(root, 'valid-configs'), { create: false, note });
      const key = folder && CacheKey.of(root, false);
      if (!key) return false;
      return key.verify(readCacheFile(join(folder, entryName(text)), 64)?.toString('latin1'), schemaDigest, text);
    },
    add: (text) => {
      const root = trustedCacheFolder(top, { create: true, note });
      const folder = root && trustedCacheFolder(join(root, 'valid-configs'), { create: true, note });
      const key = folder && CacheKey.of(root, true);
      // A cache that cannot be written only means the next run checks again.
      if (key) writeCacheFile(join(folder, entryName(text)), key.sign(schemaDigest, text));
    },
  };
}
