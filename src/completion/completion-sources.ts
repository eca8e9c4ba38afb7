import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ToolIndex } from '../cache/tool-index.js';
import { validConfigMemo } from '../cache/valid-configs.js';
import { buildConfig, defaultConfig } from '../config/build-config.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { findConfigPath } from '../config/find-config-path.js';
import { parseJsonc } from '../config/parse-jsonc.js';
import { HOST_NAMES } from '../hosts/host-types.js';
import type { CandidateSources, LineSettings } from './complete-words.js';

/** A config is a few kB; a bigger file is not read to complete a word. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Server and tool names for completion, from the config the line names (`--config`, `--host`, or the
 * usual lookup) and the tool index (SPEC §12). Nothing is started, nothing is written, nothing
 * throws: a config that cannot be read offers no servers, a server never indexed offers no tools.
 * `builtinTools`: the builtin tools' names, always offered.
 */
export function completionSources(settings: LineSettings, env: NodeJS.ProcessEnv, cwd: string, builtinTools: readonly string[]): CandidateSources {
  let config: Promise<ToolrunConfig | undefined> | undefined;
  let index: ToolIndex | undefined;
  const loaded = () => (config ??= readConfigQuietly(settings, env, cwd));
  return {
    servers: async () => Object.keys((await loaded())?.servers ?? {}),
    remoteServers: async () =>
      Object.values((await loaded())?.servers ?? {})
        .filter((server) => server.transport !== 'stdio')
        .map((server) => server.name),
    serverTools: async (server) => {
      const found = await loaded();
      if (!found?.servers[server]) return [];
      index ??= new ToolIndex(found, env);
      return index.knownTools(server) ?? [];
    },
    localTools: async () => [...builtinTools, ...((await loaded())?.tools.map((tool) => tool.name) ?? [])],
    hosts: () => [...HOST_NAMES],
  };
}

async function readConfigQuietly(settings: LineSettings, env: NodeJS.ProcessEnv, cwd: string): Promise<ToolrunConfig | undefined> {
  try {
    if (settings.host !== undefined) {
      const { loadHostConfig } = await import('../hosts/host-config.js');
      const config = await loadHostConfig(settings.host, env, cwd, { validConfigs: validConfigMemo(env), terminalEnv: settings.terminalEnv });
      // A server the host would not start (pending approval, rejected, untrusted) is not offered.
      for (const [name, server] of Object.entries(config.servers)) if (server.refused) delete config.servers[name];
      return config;
    }
    const location = findConfigPath(settings.config, env, cwd);
    if (location.path === null) return defaultConfig(cwd);
    // A regular file only: a FIFO (--config <(…)) read here would be consumed before the command runs.
    const stats = statSync(location.path);
    if (!stats.isFile() || stats.size > MAX_CONFIG_BYTES) return undefined;
    let text = readFileSync(location.path, 'utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const parsed = parseJsonc(text);
    if ('problem' in parsed || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
    // Not checked against the schema (its validator would cost more than the rest of the completion):
    // buildConfig takes what it can use, which is what loadConfig does with a config found valid.
    return buildConfig(parsed.value as Record<string, unknown>, location.path, dirname(location.path), () => false);
  } catch {
    return undefined;
  }
}
