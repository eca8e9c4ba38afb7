import { yamlParser } from './host-parsers.js';
import type { HostReader, HostServer } from './host-types.js';
import { isObject, readCommonEntry } from './server-entry.js';
import { readServerMap } from './server-entry.js';

/**
 * Continue: `~/.continue/config.yaml` (Windows %USERPROFILE%\.continue) with `mcpServers` as a list
 * of `{name, command, args, env, cwd, type, url}`, and block files in the workspace's
 * `.continue/mcpServers/` (YAML with the same `mcpServers` list, or a JSON file in Claude/Cursor's
 * `mcpServers` shape). Templates `${{ secrets.NAME }}` / `${{ inputs.NAME }}` are filled by
 * Continue's hub, not by toolrun: unresolved. Sources: docs.continue.dev/customize/deep-dives/mcp
 * (continuedev/continue PR #8021), docs.continue.dev/reference (config.yaml).
 */
export const readContinue: HostReader = (text, context) => {
  const { parse, YAMLParseError } = yamlParser();
  let value: unknown;
  try {
    // maxAliasCount bounds the work of alias expansion (a "billion laughs" file).
    value = parse(text, { maxAliasCount: 1000 });
  } catch (error) {
    if (error instanceof YAMLParseError && error.linePos)
      return { servers: [], problems: [`${error.linePos[0].line}:${error.linePos[0].col}: invalid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`] };
    return { servers: [], problems: [`invalid YAML: ${(error as Error).message.split('\n')[0]}`] };
  }
  if (value === null || value === undefined) return { servers: [], problems: [] };
  if (!isObject(value)) return { servers: [], problems: ['not a YAML mapping'] };
  const list = value.mcpServers;
  if (list === undefined) return { servers: [], problems: [] };
  if (!Array.isArray(list)) return { servers: [], problems: ['mcpServers is not a list'] };
  const servers: HostServer[] = [];
  const problems: string[] = [];
  list.forEach((raw, index) => {
    if (!isObject(raw) || typeof raw.name !== 'string') problems.push(`mcpServers[${index}] has no name`);
    else servers.push({ ...readCommonEntry(raw.name, raw, context, { style: 'continue', handled: ['name'], types: { 'streamable-http': 'http' } }), place: `mcpServers[${index}]` });
  });
  return { servers, problems };
};

/** A JSON block file in `.continue/mcpServers/`: Claude Desktop's shape, read as Continue reads it. */
export const readContinueJson: HostReader = (text, context) => readServerMap(text, context, 'mcpServers', { style: 'continue', types: { 'streamable-http': 'http' } });
