import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const DEFAULT_CONFIG_FILE = 'toolrun.config.json';

export interface ConfigLocation {
  /** Absolute path, or null when the embedded default applies. */
  path: string | null;
  /** Where the path came from, for error messages ("named by --config"). */
  origin: '--config' | 'TOOLRUN_CONFIG' | 'cwd' | 'default';
}

/** Discovery order of SPEC §3: --config, $TOOLRUN_CONFIG, ./toolrun.config.json, embedded default. */
export function findConfigPath(explicitPath: string | undefined, env: NodeJS.ProcessEnv, cwd: string): ConfigLocation {
  if (explicitPath !== undefined && explicitPath !== '') return { path: resolve(cwd, explicitPath), origin: '--config' };
  const fromEnv = env.TOOLRUN_CONFIG;
  if (fromEnv) return { path: resolve(cwd, fromEnv), origin: 'TOOLRUN_CONFIG' };
  const local = resolve(cwd, DEFAULT_CONFIG_FILE);
  if (existsSync(local)) return { path: local, origin: 'cwd' };
  return { path: null, origin: 'default' };
}
