import type { ToolrunConfig } from '../config/config-types.js';

/**
 * The key of a config's holder (SPEC §12: per user and per config, "keyed by the config's resolved
 * content"): its file, its content as loaded, and the values of the environment variables its
 * servers' entries name — an edited config, a changed `${TOKEN}` or another `--protocol` gives
 * another key, so a holder started for the old one is never used for the new.
 */
export function sessionKey(config: ToolrunConfig, env: NodeJS.ProcessEnv): string {
  const { path, baseDir, servers, tools, paramMappings, retry, timeoutMs, connectTimeoutMs, installTimeoutMs, protocolFlag } = config;
  const serversText = JSON.stringify(servers);
  const names = [...new Set([...serversText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!))].sort();
  const variables = Object.fromEntries(names.map((name) => [name, env[name] ?? null]));
  const content = JSON.stringify({ path, baseDir, servers, tools, paramMappings, retry, timeoutMs, connectTimeoutMs, installTimeoutMs, protocolFlag: protocolFlag ?? null, variables });
  return fnv1a64(content);
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
