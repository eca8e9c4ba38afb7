import type { HostReader } from './host-types.js';
import { isObject, readCommonEntry, serverMapOf } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';

/**
 * opencode: `opencode.json` / `opencode.jsonc` in ~/.config/opencode ($XDG_CONFIG_HOME/opencode) and
 * at the project; servers under `mcp`: `{type: "local", command: [cmd, ...args], environment,
 * enabled}` or `{type: "remote", url, headers, enabled}`, plus `timeout` (ms). Strings may use
 * `{env:VAR}` and `{file:path}`. Source: opencode.ai/docs/mcp-servers and opencode.ai/docs/config
 * ("Variables"); hexdocs opencode_sdk McpLocalConfig/McpRemoteConfig for the fields.
 */
export const readOpencode: HostReader = (text, context) => {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { servers: [], problems: [parsed.problem] };
  return serverMapOf(parsed.value, 'mcp', context, { style: 'opencode', handled: ['enabled', 'environment', 'command', 'type'] }, (name, raw, ctx, options) => {
    const command = Array.isArray(raw.command) ? raw.command : [];
    const mapped = {
      ...raw,
      command: command[0],
      args: command.slice(1),
      env: isObject(raw.environment) ? raw.environment : undefined,
      type: raw.type === 'remote' ? undefined : raw.type === 'local' ? 'stdio' : raw.type,
    };
    if (raw.type === 'remote') delete mapped.command;
    if (raw.type === 'remote') delete (mapped as Record<string, unknown>).args;
    const server = readCommonEntry(name, mapped, ctx, options);
    if (raw.enabled === false) server.disabled = true;
    server.fields = { env: 'environment', command: 'command[0]' };
    return server;
  });
};
