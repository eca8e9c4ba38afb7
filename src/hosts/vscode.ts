import type { HostReader } from './host-types.js';
import { isObject, readCommonEntry, serverMapOf } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';

/**
 * VS Code: user `mcp.json` in the profile folder (Code/User), workspace `.vscode/mcp.json`: JSONC
 * with `servers` (type stdio | http | sse, command, args, env, envFile, cwd, url, headers, dev) and
 * `inputs` (prompted values, `${input:id}`). Predefined variables (`${workspaceFolder}`,
 * `${userHome}`, `${env:VAR}`) are expanded. Source: code.visualstudio.com/docs/copilot/reference/
 * mcp-configuration. An entry using `${input:…}` cannot be run by toolrun (VS Code prompts for it).
 */
export const readVsCode: HostReader = (text, context) => {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { servers: [], problems: [parsed.problem] };
  const read = serverMapOf(parsed.value, 'servers', context, { style: 'vscode', handled: ['dev'], envFile: true }, (name, raw, ctx, options) => {
    const server = readCommonEntry(name, raw, ctx, options);
    if (raw.dev !== undefined) server.unsupported.push('dev');
    return server;
  });
  if (isObject(parsed.value) && parsed.value.inputs !== undefined && !Array.isArray(parsed.value.inputs)) read.problems.push('"inputs" is not an array');
  return read;
};
