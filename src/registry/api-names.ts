import { lazyCrypto } from '../lazy-crypto.js';

/**
 * Model APIs (OpenAI function calling, Anthropic tool use) take tool names of `[A-Za-z0-9_-]{1,64}`.
 * toolrun's call names may not fit: `everything:echo` (a shadowed MCP tool), `get.time`, a long
 * server prefix. Each gets a valid name of its own, `everything__echo`, the registry maps back.
 */
export const API_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const API_NAME_MAX = 64;

export function isApiName(name: string): boolean {
  return API_NAME_PATTERN.test(name);
}

/**
 * An API name for every call name, unique across them: a valid call name is kept; otherwise `:`
 * becomes `__` and any other character `_`, shortened with a hash of the original when too long or
 * when the result is taken. The same list gives the same names on every run.
 */
export function toApiNames<T>(entries: Array<[T, string]>): Map<T, string> {
  const taken = new Set(entries.map(([, name]) => name).filter(isApiName));
  const names = new Map<T, string>();
  for (const [key, callName] of entries) {
    if (isApiName(callName)) {
      names.set(key, callName);
      continue;
    }
    let candidate = callName.replace(/:/g, '__').replace(/[^A-Za-z0-9_-]/g, '_');
    if (candidate.length > API_NAME_MAX || taken.has(candidate) || candidate === '') candidate = `${candidate.slice(0, API_NAME_MAX - 9)}_${shortHash(callName)}`;
    taken.add(candidate);
    names.set(key, candidate);
  }
  return names;
}

function shortHash(text: string): string {
  return lazyCrypto().createHash('sha256').update(text).digest('hex').slice(0, 8);
}
