import { readFileSync } from 'node:fs';
import type { ToolrunConfig } from '../config/config-types.js';

/**
 * The key of a config's holder (SPEC §12: per user and per config, "keyed by the config's resolved
 * content"): the config file's path and text, the values of the environment variables it names, and
 * `--protocol` — an edited config, a changed `${TOKEN}` or another protocol gives another key, so a
 * holder started for the old one is never used for the new. Made from the text, not the parsed
 * config, so the warm exec path need not parse it (fast-warm-exec.ts).
 */
export function sessionKeyOf(path: string, text: string, env: NodeJS.ProcessEnv, protocolFlag: string | undefined): string {
  const names = [...new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!))].sort();
  const variables = names.map((name) => [name, env[name] ?? null]);
  return fnv1a64(JSON.stringify([path, text, variables, protocolFlag ?? null]));
}

/** The key of a loaded config (its text as loadConfig read it). */
export function sessionKey(config: ToolrunConfig, env: NodeJS.ProcessEnv): string {
  const path = config.path ?? '(default)';
  const text = config.sourceText ?? (config.path ? readFileSync(config.path, 'utf8') : '');
  return sessionKeyOf(path, text, env, config.protocolFlag);
}

/**
 * FNV-1a, 64 bits, as 16 hex digits. Not a security hash (the directory is the user's own); a key
 * computed on every warm exec, where loading node:crypto would cost more than the call.
 */
function fnv1a64(text: string): string {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let i = 0; i < text.length; i++) {
    low = (low ^ text.charCodeAt(i)) >>> 0;
    // × 0x100000001b3, on two 32-bit halves.
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x100000000);
    high = (Math.imul(high, 0x1b3) + Math.imul(low, 0x100) + carry) >>> 0;
    low = lowProduct >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}
