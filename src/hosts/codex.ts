import { tomlParser } from './host-parsers.js';
import type { HostReader, HostServer } from './host-types.js';
import { isObject, readCommonEntry, type Json } from './server-entry.js';
import { childPath } from '../config/config-problems.js';

/**
 * Codex: `$CODEX_HOME/config.toml` (default ~/.codex/config.toml), and `.codex/config.toml` in a
 * trusted project; servers are `[mcp_servers.NAME]` tables: command, args, env (a table), cwd,
 * env_vars (names passed from Codex's environment), url, bearer_token_env_var, http_headers,
 * env_http_headers, enabled, startup_timeout_sec (default 10), tool_timeout_sec (default 60),
 * enabled_tools, disabled_tools. Sources: openai/codex docs/config.md (MCP section; PR #6845),
 * dev.to "Codex MCP: add, configure and debug" (project file, trusted projects only).
 * Codex expands no `${VAR}` in these strings: literal. startup_timeout_sec becomes toolrun's
 * connectTimeoutMs; tool_timeout_sec has no per-server setting in toolrun: named.
 */
export const readCodex: HostReader = (text, context) => {
  const { parse, TomlError } = tomlParser();
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    if (error instanceof TomlError) return { servers: [], problems: [`${error.line}:${error.column}: invalid TOML: ${error.message.split('\n')[0]}`] };
    return { servers: [], problems: [`invalid TOML: ${(error as Error).message.split('\n')[0]}`] };
  }
  const block = isObject(value) ? value.mcp_servers : undefined;
  if (block === undefined) return { servers: [], problems: [] };
  if (!isObject(block)) return { servers: [], problems: ['mcp_servers is not a table'] };
  const servers: HostServer[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(block)) {
    if (!isObject(raw)) {
      problems.push(`mcp_servers.${name} is not a table`);
      continue;
    }
    servers.push(readCodexServer(name, raw, context));
  }
  return { servers, problems };
};

const HANDLED = ['enabled', 'startup_timeout_sec', 'startup_timeout_ms', 'env_vars', 'bearer_token_env_var', 'http_headers', 'env_http_headers'];

function readCodexServer(name: string, raw: Json, context: Parameters<HostReader>[1]): HostServer {
  const server = readCommonEntry(name, { ...raw, headers: raw.http_headers }, context, { style: 'literal', handled: HANDLED });
  const env = { ...(isObject(server.entry.env) ? server.entry.env : {}) };
  // env_vars: names Codex copies from its own environment into the server's.
  if (Array.isArray(raw.env_vars)) for (const variable of raw.env_vars) if (typeof variable === 'string') env[variable] = `\${${variable}:-}`;
  if (Object.keys(env).length > 0) server.entry.env = env;
  const headers = { ...(isObject(server.entry.headers) ? server.entry.headers : {}) };
  if (typeof raw.bearer_token_env_var === 'string') headers.Authorization = `Bearer \${${raw.bearer_token_env_var}}`;
  if (isObject(raw.env_http_headers)) for (const [header, variable] of Object.entries(raw.env_http_headers)) if (typeof variable === 'string') headers[header] = `\${${variable}}`;
  if (Object.keys(headers).length > 0) server.entry.headers = headers;
  if (server.entry.url !== undefined) server.entry.type = 'http';
  const startup = typeof raw.startup_timeout_sec === 'number' ? raw.startup_timeout_sec * 1000 : typeof raw.startup_timeout_ms === 'number' ? raw.startup_timeout_ms : undefined;
  if (startup !== undefined && startup > 0) server.entry.connectTimeoutMs = Math.round(startup);
  if (raw.enabled === false) server.disabled = true;
  server.place = childPath('mcp_servers', name);
  server.fields = { headers: 'http_headers' };
  if (typeof raw.bearer_token_env_var === 'string') server.fields['headers.Authorization'] = 'bearer_token_env_var';
  if (isObject(raw.env_http_headers)) for (const header of Object.keys(raw.env_http_headers)) server.fields[`headers.${header}`] = `env_http_headers.${header}`;
  if (Array.isArray(raw.env_vars)) for (const variable of raw.env_vars) if (typeof variable === 'string') server.fields[`env.${variable}`] = 'env_vars';
  return server;
}
