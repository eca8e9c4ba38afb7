import { lazyCrypto } from '../lazy-crypto.js';
import { sortKeysDeep } from '../snapshot/build-snapshot.js';

/** The canonical JSON of a value: every object's keys in code-unit order, no whitespace (arrays kept in order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

/** Hex SHA-256 of the value's canonical JSON, as UTF-8. */
export function sha256OfJson(value: unknown): string {
  return lazyCrypto().createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
