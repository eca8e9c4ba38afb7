import { isAbsolute, join } from 'node:path';
import type { HostFileRead, HostReadContext, HostServer } from './host-types.js';
import { rewriteVariables, type VariableStyle } from './host-variables.js';
import { parseHostJson } from './parse-host-json.js';

export type Json = Record<string, unknown>;
import { isObject } from '../config/build-config.js';
import { childPath } from '../config/config-problems.js';

export { isObject };

/** Fields of the common `mcpServers` entry toolrun honours as they are. */
const COMMON_FIELDS = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'disabled']);

export interface EntryOptions {
  style: VariableStyle;
  /** Fields this host has that toolrun reads differently (handled by the caller) or that only describe the entry. */
  handled?: readonly string[];
  /** The key holding a remote server's URL, when it is not `url` (Windsurf's `serverUrl`, Gemini's `httpUrl`). */
  urlKeys?: readonly string[];
  /** The host reads a stdio entry's `envFile` (VS Code, Cursor): carried over, a relative path from the project folder. */
  envFile?: boolean;
  /** Type names of this host → toolrun's (`streamableHttp` → `http`). */
  types?: Readonly<Record<string, string>>;
}

/** The common entry (command, args, env, cwd, url, headers, type, disabled) as toolrun's, every other field named. */
export function readCommonEntry(name: string, raw: Json, context: HostReadContext, options: EntryOptions): HostServer {
  const unresolved: string[] = [];
  const unsupported: string[] = [];
  const text = (value: unknown) => (typeof value === 'string' ? rewriteVariables(value, options.style, context, unresolved) : value);
  const map = (value: unknown, rewrite = text) => (isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item)])) : value);
  // Gemini CLI expands `env` values a second time at spawn, where an unset variable is ''.
  const envStyle = options.style === 'dollar' ? 'dollar-env' : options.style;
  const envText = (value: unknown) => (typeof value === 'string' ? rewriteVariables(value, envStyle, context, unresolved) : value);
  const entry: Json = {};
  if (raw.command !== undefined) entry.command = text(raw.command);
  if (Array.isArray(raw.args)) entry.args = raw.args.map(text);
  else if (raw.args !== undefined) entry.args = raw.args;
  if (raw.env !== undefined) entry.env = map(raw.env, envText);
  if (raw.cwd !== undefined) entry.cwd = text(raw.cwd);
  if (options.envFile && typeof raw.envFile === 'string') {
    const file = text(raw.envFile) as string;
    entry.envFile = isAbsolute(file) || file.includes('${') ? file : join(context.projectDir, file);
  }
  for (const key of ['url', ...(options.urlKeys ?? [])]) if (raw[key] !== undefined && entry.url === undefined) entry.url = text(raw[key]);
  if (raw.headers !== undefined) entry.headers = map(raw.headers);
  if (typeof raw.type === 'string') entry.type = options.types?.[raw.type] ?? raw.type;
  const handled = new Set([...COMMON_FIELDS, ...(options.urlKeys ?? []), ...(options.handled ?? []), ...(options.envFile ? ['envFile'] : [])]);
  for (const key of Object.keys(raw)) if (!handled.has(key)) unsupported.push(key);
  return { name, entry, disabled: raw.disabled === true, unsupported, unresolved };
}

/** A JSON file with an object of servers under `key` (`mcpServers`, `servers`, `context_servers`). */
export function readServerMap(text: string, context: HostReadContext, key: string, options: EntryOptions): HostFileRead {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { servers: [], problems: [parsed.problem] };
  return serverMapOf(parsed.value, key, context, options);
}

export function serverMapOf(value: unknown, key: string, context: HostReadContext, options: EntryOptions, read = readCommonEntry): HostFileRead {
  if (!isObject(value)) return { servers: [], problems: ['not a JSON object'] };
  const block = value[key];
  if (block === undefined) return { servers: [], problems: [] };
  if (!isObject(block)) return { servers: [], problems: [`"${key}" is not an object of servers`] };
  const servers: HostServer[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(block)) {
    if (!isObject(raw)) problems.push(`server '${name}' is not an object`);
    else servers.push({ ...read(name, raw, context, options), place: childPath(key, name) });
  }
  return { servers, problems };
}
