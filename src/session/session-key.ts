import { createHash } from 'node:crypto';
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
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}
