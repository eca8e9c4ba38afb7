import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidConfigMemo } from '../config/load-config.js';
import { cacheDirectory } from './cache-directory.js';

/** Set by the build (scripts/build.js): a digest of the config schema and its validator. */
declare const __TOOLRUN_CONFIG_SCHEMA_DIGEST__: string | undefined;

/**
 * The config texts this build of toolrun already found valid, kept in the cache folder as one
 * empty file per text digest. Checking a config loads its validator (~5 ms of every run that reads
 * one); the same text against the same schema gets the same answer, so it is checked once. The
 * schema's digest is part of the key: a toolrun whose rules changed checks every config again.
 * Unbuilt (tests run from source) there is no digest, and every config is checked.
 */
export function validConfigMemo(env: NodeJS.ProcessEnv): ValidConfigMemo | undefined {
  const schemaDigest = typeof __TOOLRUN_CONFIG_SCHEMA_DIGEST__ === 'string' ? __TOOLRUN_CONFIG_SCHEMA_DIGEST__ : undefined;
  if (!schemaDigest) return undefined;
  const folder = join(cacheDirectory(env), 'valid-configs');
  const entry = (text: string) => join(folder, createHash('sha256').update(schemaDigest).update('\0').update(text).digest('hex').slice(0, 32));
  return {
    has: (text) => existsSync(entry(text)),
    add: (text) => {
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        writeFileSync(entry(text), '');
      } catch {
        // A cache that cannot be written only means the next run checks again.
      }
    },
  };
}
