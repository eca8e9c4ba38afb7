import { isKnownProtocolSetting, PROTOCOL_SETTINGS } from '../protocol/protocol-era.js';
import { isAbsolute, resolve } from 'node:path';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_INSTALL_TIMEOUT_MS,
  DEFAULT_PARAM_MAPPINGS,
  DEFAULT_RETRY,
  DEFAULT_SLOW_TOOL_MS,
  DEFAULT_TIMEOUT_MS,
  type ConfiguredTool,
  type RawServerConfig,
  type ToolImplementation,
  type ToolrunConfig,
} from './config-types.js';

/** One thing wrong with a config file, at a JSON path such as `mcpServers.zwave.args[1]`. */
export interface ConfigProblem {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const childPath = (parent: string, key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`);

const IMPLEMENTATION_TYPES = ['builtin', 'mock', 'internal'];
const SERVER_TYPES = ['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'];

/**
 * Checks the parsed JSON of a config file and turns it into a ToolrunConfig. Every problem is
 * collected (so `toolrun validate` can show them all); the config is only usable when none were found.
 */
export function checkConfig(raw: unknown, filePath: string | null, baseDir: string): { config: ToolrunConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });
  const config: ToolrunConfig = {
    path: filePath,
    baseDir,
    // Null prototypes: a server or tool named `toString` is a name like any other, not Object's method.
    servers: Object.create(null) as ToolrunConfig['servers'],
    tools: [],
    paramMappings: Object.assign(Object.create(null) as ToolrunConfig['paramMappings'], structuredClone(DEFAULT_PARAM_MAPPINGS)),
    retry: { ...DEFAULT_RETRY },
    timeoutMs: DEFAULT_TIMEOUT_MS,
    slowToolMs: DEFAULT_SLOW_TOOL_MS,
    connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
    installTimeoutMs: DEFAULT_INSTALL_TIMEOUT_MS,
  };
  if (!isObject(raw)) {
    report('$', `the top level must be an object, found ${typeName(raw)}`);
    return { config, problems };
  }

  const positiveInteger = (value: unknown, path: string, { allowZero = false } = {}): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
      report(path, `must be a ${allowZero ? 'non-negative' : 'positive'} integer, found ${JSON.stringify(value)}`);
      return undefined;
    }
    return value;
  };
  const optionalString = (value: unknown, path: string): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      report(path, `must be a string, found ${typeName(value)}`);
      return undefined;
    }
    return value;
  };
  const stringMap = (value: unknown, path: string): Record<string, string> => {
    if (value === undefined) return {};
    if (!isObject(value)) {
      report(path, `must be an object of strings, found ${typeName(value)}`);
      return {};
    }
    const out: Record<string, string> = Object.create(null);
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string') out[key] = item;
      else report(childPath(path, key), `must be a string, found ${typeName(item)} (quote it: "${String(item)}")`);
    }
    return out;
  };

  config.timeoutMs = positiveInteger(raw.timeoutMs, 'timeoutMs') ?? config.timeoutMs;
  config.slowToolMs = positiveInteger(raw.slowToolMs, 'slowToolMs', { allowZero: true }) ?? config.slowToolMs;
  config.connectTimeoutMs = positiveInteger(raw.connectTimeoutMs, 'connectTimeoutMs') ?? config.connectTimeoutMs;
  config.installTimeoutMs = positiveInteger(raw.installTimeoutMs, 'installTimeoutMs') ?? config.installTimeoutMs;

  if (raw.retry !== undefined) {
    if (!isObject(raw.retry)) report('retry', `must be an object like {"attempts": 3, "baseDelayMs": 2000}, found ${typeName(raw.retry)}`);
    else {
      config.retry.attempts = positiveInteger(raw.retry.attempts, 'retry.attempts') ?? config.retry.attempts;
      config.retry.baseDelayMs = positiveInteger(raw.retry.baseDelayMs, 'retry.baseDelayMs', { allowZero: true }) ?? config.retry.baseDelayMs;
    }
  }

  if (raw.paramMappings !== undefined) {
    if (!isObject(raw.paramMappings)) report('paramMappings', `must be an object of tool name → {from: to}, found ${typeName(raw.paramMappings)}`);
    else
      for (const [tool, mapping] of Object.entries(raw.paramMappings)) {
        config.paramMappings[tool] = { ...config.paramMappings[tool], ...stringMap(mapping, childPath('paramMappings', tool)) };
      }
  }

  // Claude Desktop, Cursor and LangChain write `mcpServers`; VS Code writes `servers`.
  for (const key of ['mcpServers', 'servers'] as const) {
    const block = raw[key];
    if (block === undefined) continue;
    if (!isObject(block)) {
      report(key, `must be an object of server name → server entry, found ${typeName(block)}`);
      continue;
    }
    for (const [name, entry] of Object.entries(block)) {
      const path = childPath(key, name);
      const nameProblem = checkServerName(name);
      if (nameProblem) {
        report(path, nameProblem);
        continue;
      }
      if (config.servers[name]) report(path, `server '${name}' is defined in both mcpServers and servers; keep one`);
      const server = checkServer(name, entry, path, { report, optionalString, stringMap, positiveInteger }, baseDir);
      if (server) config.servers[name] = server;
    }
  }

  if (raw.tools !== undefined) {
    if (!Array.isArray(raw.tools)) report('tools', `must be an array of tool definitions, found ${typeName(raw.tools)}`);
    else
      raw.tools.forEach((entry, index) => {
        const tool = checkTool(entry, `tools[${index}]`, report, baseDir);
        if (tool) config.tools.push(tool);
      });
  }
  return { config, problems };
}

/** Why a server name cannot be used, or undefined. `SERVER:TOOL` is how a tool is named, so no ':' in SERVER. */
function checkServerName(name: string): string | undefined {
  if (name.trim() === '') return 'a server name cannot be empty; give it a name such as "files"';
  if (name.includes(':')) return `server name '${name}' contains ':', which separates server and tool in 'SERVER:TOOL'; rename it (e.g. '${name.replaceAll(':', '-')}')`;
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') return `server name '${name}' is not allowed; rename it`;
  return undefined;
}

interface CheckHelpers {
  report: (path: string, message: string) => void;
  optionalString: (value: unknown, path: string) => string | undefined;
  stringMap: (value: unknown, path: string) => Record<string, string>;
  positiveInteger: (value: unknown, path: string) => number | undefined;
}

function checkServer(name: string, entry: unknown, path: string, helpers: CheckHelpers, baseDir: string): RawServerConfig | undefined {
  const { report, optionalString, stringMap, positiveInteger } = helpers;
  if (!isObject(entry)) {
    report(path, `must be an object with "command" (stdio) or "url" (remote), found ${typeName(entry)}`);
    return undefined;
  }
  if (entry.disabled === true) return undefined;
  const type = optionalString(entry.type, `${path}.type`);
  if (type !== undefined && !SERVER_TYPES.includes(type)) {
    report(`${path}.type`, `unknown server type '${type}'; use "stdio", "http" or "sse"`);
    return undefined;
  }
  const hint = optionalString(entry.hint, `${path}.hint`);
  const connectTimeoutMs = positiveInteger(entry.connectTimeoutMs, `${path}.connectTimeoutMs`);
  const protocol = optionalString(entry.protocol, `${path}.protocol`);
  if (protocol !== undefined && !isKnownProtocolSetting(protocol)) report(`${path}.protocol`, `unknown protocol '${protocol}'; use ${PROTOCOL_SETTINGS.map((value) => `"${value}"`).join(', ')}`);
  const wantsRemote = type === 'http' || type === 'streamable-http' || type === 'streamableHttp' || type === 'sse' || (type === undefined && entry.url !== undefined);
  if (wantsRemote) {
    const url = optionalString(entry.url, `${path}.url`);
    if (url === undefined) {
      report(`${path}.url`, `a ${type ?? 'remote'} server needs "url", e.g. "http://127.0.0.1:3001/mcp"`);
      return undefined;
    }
    if (entry.command !== undefined) report(path, 'has both "command" and "url"; a server is either stdio (command) or remote (url)');
    const transport = type === 'sse' ? 'sse' : type === undefined ? 'auto' : 'http';
    return { transport, name, url, headers: stringMap(entry.headers, `${path}.headers`), hint, connectTimeoutMs, protocol };
  }
  const command = optionalString(entry.command, `${path}.command`);
  if (command === undefined || command.trim() === '') {
    report(`${path}.command`, 'a stdio server needs "command" (e.g. "node"), or give "url" for a remote server');
    return undefined;
  }
  let args: string[] = [];
  if (entry.args !== undefined) {
    if (!Array.isArray(entry.args)) report(`${path}.args`, `must be an array of strings, found ${typeName(entry.args)}`);
    else
      args = entry.args.flatMap((arg, index) => {
        if (typeof arg === 'string') return [arg];
        report(`${path}.args[${index}]`, `must be a string, found ${typeName(arg)}`);
        return [];
      });
  }
  const cwd = optionalString(entry.cwd, `${path}.cwd`);
  const installTimeoutMs = positiveInteger(entry.installTimeoutMs, `${path}.installTimeoutMs`);
  return { transport: 'stdio', name, command, args, env: stringMap(entry.env, `${path}.env`), cwd: cwd ?? baseDir, hint, connectTimeoutMs, installTimeoutMs, protocol };
}

function checkTool(entry: unknown, path: string, report: CheckHelpers['report'], baseDir: string): ConfiguredTool | undefined {
  if (!isObject(entry)) {
    report(path, `must be a tool definition object, found ${typeName(entry)}`);
    return undefined;
  }
  let ok = true;
  const fail = (subPath: string, message: string) => {
    report(subPath, message);
    ok = false;
  };
  if (typeof entry.name !== 'string' || entry.name === '') fail(`${path}.name`, 'must be a non-empty string');
  const where = `${path}.`;
  if (typeof entry.description !== 'string' || entry.description.trim() === '') fail(`${where}description`, 'must be a non-empty string (models choose tools by it)');
  const parameters = entry.parameters ?? { type: 'object', properties: {} };
  if (!isObject(parameters)) fail(`${where}parameters`, `must be a JSON Schema object, found ${typeName(parameters)}`);
  else if (parameters.type !== undefined && parameters.type !== 'object') fail(`${where}parameters.type`, `must be "object" (tool arguments are an object), found ${JSON.stringify(parameters.type)}`);
  const implementation = checkImplementation(entry.implementation, `${where}implementation`, fail, baseDir);
  if (!ok || !implementation) return undefined;
  return { name: entry.name as string, description: entry.description as string, parameters: parameters as Record<string, unknown>, implementation };
}

function checkImplementation(value: unknown, path: string, fail: (path: string, message: string) => void, baseDir: string): ToolImplementation | undefined {
  if (!isObject(value)) {
    fail(path, `must be an object with "type" (${IMPLEMENTATION_TYPES.join(', ')}), found ${typeName(value)}`);
    return undefined;
  }
  switch (value.type) {
    case 'mock':
      if (!('mock_response' in value)) fail(`${path}.mock_response`, 'a mock tool needs "mock_response" (any JSON value)');
      return { type: 'mock', mock_response: value.mock_response };
    case 'builtin':
      if (typeof value.handler !== 'string' || value.handler === '') {
        fail(`${path}.handler`, 'a builtin tool needs "handler", e.g. "math_eval"');
        return undefined;
      }
      return { type: 'builtin', handler: value.handler };
    case 'internal': {
      const module = value.module;
      const handler = value.handler;
      if (typeof module !== 'string' || module === '') fail(`${path}.module`, 'an internal tool needs "module", the path of an ES module relative to the config file');
      if (typeof handler !== 'string' || handler === '') fail(`${path}.handler`, 'an internal tool needs "handler", the name of a function the module exports');
      if (typeof module !== 'string' || typeof handler !== 'string' || module === '' || handler === '') return undefined;
      return { type: 'internal', module: isAbsolute(module) ? module : resolve(baseDir, module), handler };
    }
    default:
      fail(`${path}.type`, `unknown implementation type ${JSON.stringify(value.type)}; use one of: ${IMPLEMENTATION_TYPES.join(', ')}`);
      return undefined;
  }
}
