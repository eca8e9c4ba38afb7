import { isAbsolute, resolve } from 'node:path';
import { childPath } from './config-problems.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_INSTALL_TIMEOUT_MS,
  DEFAULT_PARAM_MAPPINGS,
  DEFAULT_RETRY,
  DEFAULT_SLOW_TOOL_MS,
  DEFAULT_TIMEOUT_MS,
  type ConfiguredTool,
  type OAuthSettings,
  type PackagedSource,
  type RawServerConfig,
  type RawStdioServer,
  type ToolImplementation,
  type ToolrunConfig,
} from './config-types.js';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The embedded default: no servers, no tools of its own, every setting at its default. */
export function defaultConfig(baseDir: string): ToolrunConfig {
  return buildConfig({}, null, baseDir, () => false);
}

/** The config made of the checked JSON: defaults filled in, paths resolved; parts with a problem left out. */
export function buildConfig(raw: Json, filePath: string | null, baseDir: string, invalid: (path: string) => boolean): ToolrunConfig {
  const setting = (key: string, fallback: number): number => (typeof raw[key] === 'number' && !invalid(key) ? (raw[key] as number) : fallback);
  const retry = isObject(raw.retry) ? raw.retry : {};
  const config: ToolrunConfig = {
    path: filePath,
    baseDir,
    // Null prototypes: a server or tool named `toString` is a name like any other, not Object's method.
    servers: Object.create(null) as ToolrunConfig['servers'],
    tools: [],
    paramMappings: Object.assign(Object.create(null) as ToolrunConfig['paramMappings'], structuredClone(DEFAULT_PARAM_MAPPINGS)),
    retry: {
      attempts: typeof retry.attempts === 'number' && !invalid('retry.attempts') ? retry.attempts : DEFAULT_RETRY.attempts,
      baseDelayMs: typeof retry.baseDelayMs === 'number' && !invalid('retry.baseDelayMs') ? retry.baseDelayMs : DEFAULT_RETRY.baseDelayMs,
    },
    timeoutMs: setting('timeoutMs', DEFAULT_TIMEOUT_MS),
    slowToolMs: setting('slowToolMs', DEFAULT_SLOW_TOOL_MS),
    connectTimeoutMs: setting('connectTimeoutMs', DEFAULT_CONNECT_TIMEOUT_MS),
    installTimeoutMs: setting('installTimeoutMs', DEFAULT_INSTALL_TIMEOUT_MS),
    // Checked when a server is started (cli-support/roots-for.ts): a missing folder fails only the commands that offer it.
    roots: Array.isArray(raw.roots) && !invalid('roots') ? raw.roots.filter((root): root is string => typeof root === 'string').map((root) => resolve(baseDir, root)) : [],
  };
  if (isObject(raw.paramMappings)) {
    for (const [tool, mapping] of Object.entries(raw.paramMappings)) {
      if (!isObject(mapping)) continue;
      const valid = Object.entries(mapping).filter(([, to]) => typeof to === 'string') as Array<[string, string]>;
      config.paramMappings[tool] = { ...config.paramMappings[tool], ...Object.fromEntries(valid) };
    }
  }
  // Claude Desktop, Cursor and LangChain write `mcpServers`; VS Code writes `servers`.
  for (const key of ['mcpServers', 'servers'] as const) {
    const block = raw[key];
    if (!isObject(block)) continue;
    for (const [name, entry] of Object.entries(block)) {
      if (invalid(childPath(key, name)) || !isObject(entry) || entry.disabled === true || config.servers[name]) continue;
      config.servers[name] = buildServer(name, entry, baseDir);
    }
  }
  if (Array.isArray(raw.tools)) {
    raw.tools.forEach((entry, index) => {
      if (!invalid(`tools[${index}]`) && isObject(entry)) config.tools.push(buildTool(entry as Json, baseDir));
    });
  }
  return config;
}

const REMOTE_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'sse']);

function buildServer(name: string, entry: Json, baseDir: string): RawServerConfig {
  const type = entry.type as string | undefined;
  const common = {
    name,
    hint: entry.hint as string | undefined,
    connectTimeoutMs: entry.connectTimeoutMs as number | undefined,
    protocol: entry.protocol as string | undefined,
  };
  if (typeof entry.bundle === 'string' || typeof entry.serverJson === 'string') return { ...packagedServer(entry, baseDir), ...common };
  if ((type !== undefined && REMOTE_TYPES.has(type)) || (type === undefined && entry.url !== undefined)) {
    const transport = type === 'sse' ? 'sse' : type === undefined ? 'auto' : 'http';
    const oauth = isObject(entry.oauth) ? ({ ...entry.oauth } as OAuthSettings) : undefined;
    return { transport, url: entry.url as string, headers: { ...(entry.headers as Record<string, string> | undefined) }, ...(oauth && { oauth }), ...common };
  }
  return {
    transport: 'stdio',
    command: entry.command as string,
    args: [...((entry.args as string[] | undefined) ?? [])],
    env: { ...(entry.env as Record<string, string> | undefined) },
    cwd: (entry.cwd as string | undefined) ?? baseDir,
    ...(typeof entry.envFile === 'string' && { envFile: entry.envFile }),
    installTimeoutMs: entry.installTimeoutMs as number | undefined,
    ...common,
  };
}

/** A `bundle` or `serverJson` entry: its source kept, its launch composed later (packaged-servers.ts). */
function packagedServer(entry: Json, baseDir: string): Omit<RawStdioServer, 'name'> {
  const packaged: PackagedSource =
    typeof entry.bundle === 'string'
      ? { kind: 'bundle', path: resolve(baseDir, entry.bundle), userConfig: { ...(entry.userConfig as Record<string, string | string[]> | undefined) } }
      : {
          kind: 'serverJson',
          path: resolve(baseDir, entry.serverJson as string),
          ...(typeof entry.package === 'number' ? { package: entry.package } : {}),
          ...(typeof entry.remote === 'number' ? { remote: entry.remote } : {}),
          inputs: { ...(entry.inputs as Record<string, string> | undefined) },
        };
  return {
    transport: 'stdio',
    command: '',
    args: [],
    env: { ...(entry.env as Record<string, string> | undefined) },
    cwd: baseDir,
    installTimeoutMs: entry.installTimeoutMs as number | undefined,
    packaged,
  };
}

function buildTool(entry: Json, baseDir: string): ConfiguredTool {
  const implementation = entry.implementation as Json;
  let built: ToolImplementation;
  if (implementation.type === 'mock') built = { type: 'mock', mock_response: implementation.mock_response };
  else if (implementation.type === 'builtin') built = { type: 'builtin', handler: implementation.handler as string };
  else {
    const module = implementation.module as string;
    built = { type: 'internal', module: isAbsolute(module) ? module : resolve(baseDir, module), handler: implementation.handler as string };
  }
  return {
    name: entry.name as string,
    description: entry.description as string,
    parameters: (entry.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
    implementation: built,
  };
}
