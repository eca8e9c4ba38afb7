import { isAbsolute, resolve } from 'node:path';
import type { RawServerConfig, ToolrunConfig } from './config-types.js';
import { expandEnv } from './expand-env.js';

export interface StdioServerSpec {
  transport: 'stdio';
  name: string;
  command: string;
  args: string[];
  /** Only the server's own `env` entries; the parent's environment is added at spawn. */
  env: Record<string, string>;
  cwd: string;
  hint?: string;
  connectTimeoutMs: number;
  installTimeoutMs: number;
}

export interface RemoteServerSpec {
  transport: 'auto' | 'http' | 'sse';
  name: string;
  url: string;
  headers: Record<string, string>;
  hint?: string;
  connectTimeoutMs: number;
}

export type ServerSpec = StdioServerSpec | RemoteServerSpec;

/** Expands a server entry's `${VAR}`s and resolves its cwd; throws ConfigError naming an unset variable. */
export function resolveServer(config: ToolrunConfig, raw: RawServerConfig, env: NodeJS.ProcessEnv = process.env): ServerSpec {
  const where = (field: string) => `${config.path ?? 'config'}: mcpServers.${raw.name}.${field}`;
  const expandMap = (map: Record<string, string>, field: string) =>
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expandEnv(value, env, where(`${field}.${key}`))]));
  const connectTimeoutMs = raw.connectTimeoutMs ?? config.connectTimeoutMs;
  if (raw.transport === 'stdio') {
    const cwd = expandEnv(raw.cwd ?? config.baseDir, env, where('cwd'));
    return {
      transport: 'stdio',
      name: raw.name,
      command: expandEnv(raw.command, env, where('command')),
      args: raw.args.map((arg, index) => expandEnv(arg, env, where(`args[${index}]`))),
      env: expandMap(raw.env, 'env'),
      cwd: isAbsolute(cwd) ? cwd : resolve(config.baseDir, cwd),
      hint: raw.hint,
      connectTimeoutMs,
      installTimeoutMs: raw.installTimeoutMs ?? config.installTimeoutMs,
    };
  }
  return {
    transport: raw.transport,
    name: raw.name,
    url: expandEnv(raw.url, env, where('url')),
    headers: expandMap(raw.headers, 'headers'),
    hint: raw.hint,
    connectTimeoutMs,
  };
}
