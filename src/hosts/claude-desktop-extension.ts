import * as path from 'node:path';
import type { McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import type { HostFileRead, HostReader, HostServer } from './host-types.js';
import { isObject } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';
import { readHostFile } from './read-host-file.js';
import { composeMcpConfig } from '../verify/mcpb/compose-mcp-config.js';
import { userConfigValues } from '../verify/mcpb/user-config-values.js';

/**
 * One extension (MCPB bundle) installed in Claude Desktop: `Claude Extensions/<id>/manifest.json`, the
 * unpacked bundle, and `Claude Extensions Settings/<id>.json`, `{"isEnabled": …, "userConfig": {…}}`,
 * both in Claude Desktop's data folder. Claude Desktop is closed source; the layout is read from public
 * code that writes or reads these files (UNCONFIRMED by Anthropic):
 * - a Windows installer script that unpacks a bundle into `Claude Extensions\<id>`, writes
 *   `Claude Extensions Settings\<id>.json` as `{ "isEnabled": true }` and registers it in
 *   `extensions-installations.json`;
 * - the zeron harness (Rust), which starts installed extensions as Claude Desktop does: only with a
 *   settings file whose `isEnabled` is true and no `orgBlockedReason`, `userConfig` over the
 *   manifest's defaults, values starting `__encrypted__:` (Claude Desktop's encrypted sensitive
 *   values) left out, platform_overrides and the MCPB variables applied.
 * The launch is composed as anthropics/mcpb's getMcpConfigForManifest composes it (compose-mcp-config.ts).
 */

/** Claude Desktop's prefix for a value it stored encrypted (sensitive options): toolrun cannot decrypt it. */
const ENCRYPTED = '__encrypted__:';
const SET_IN_CLAUDE = 'set it in Claude Desktop → Settings → Extensions; toolrun cannot read values Claude Desktop encrypts';

export interface ExtensionFiles {
  /** The unpacked bundle: `${__dirname}`. */
  folder: string;
  /** `Claude Extensions Settings/<id>.json`. */
  settings: string;
}

/** Whether a host file is an extension's manifest (not claude_desktop_config.json). */
export function isClaudeExtensionManifest(file: string): boolean {
  return path.basename(file) === 'manifest.json' && path.basename(path.dirname(path.dirname(file))) === 'Claude Extensions';
}

/** The reader of one extension's manifest.json, which also reads its settings file. */
export function claudeDesktopExtensionReader(files: ExtensionFiles, platform: NodeJS.Platform): HostReader {
  return (text, context) => {
    const manifest = checkedManifest(text);
    if ('problem' in manifest) return { servers: [], problems: [manifest.problem] };
    const settings = readSettings(files.settings);
    if ('problem' in settings) return { servers: [], problems: [`${files.settings}: ${settings.problem}`] };
    const server: HostServer = { name: manifest.name, entry: {}, disabled: settings.isEnabled !== true, unsupported: [], unresolved: [], place: 'server.mcp_config' };
    if (settings.orgBlockedReason !== undefined) {
      // A gate, not hostOnly: Claude Desktop itself refuses to start it (as a policy's denial in
      // Claude Code), so it is shown with that state and never imported; no one can start it.
      server.gate = {
        state: 'denied',
        reason: `blocked by your organization in Claude Desktop (${files.settings}): ${settings.orgBlockedReason}`,
        fix: 'Claude Desktop does not start it; ask your organization to allow it',
      };
    }
    const isEncrypted = (value: unknown) => [value].flat().some((item) => typeof item === 'string' && item.startsWith(ENCRYPTED));
    const encrypted = Object.entries(settings.userConfig).find(([, value]) => isEncrypted(value));
    // An encrypted value is left out (as zeron does), never composed into the entry.
    const given = Object.fromEntries(Object.entries(settings.userConfig).flatMap(([key, value]) => (isEncrypted(value) || asGiven(value) === undefined ? [] : [[key, asGiven(value)!]])));
    const values = userConfigValues(manifest.raw, given, path.delimiter);
    const invalid = values.findings.find((finding) => finding.level === 'error');
    if (encrypted) {
      // Claude Desktop decrypts it and starts the server: no failure of the server, so `extension`.
      server.hostOnly = { reason: `its option ${encrypted[0]} is stored encrypted in ${files.settings}`, fix: SET_IN_CLAUDE, extension: true };
    } else if (values.missing.length > 0) {
      // getMcpConfigForManifest composes nothing then, so Claude Desktop does not start it either.
      server.hostOnly = { reason: `its required option ${values.missing.join(', ')} has no value in ${files.settings}`, fix: SET_IN_CLAUDE };
    } else if (invalid) {
      server.hostOnly = { reason: `its option ${invalid.message.replace(/: give .*$/, '')} (${files.settings})`, fix: SET_IN_CLAUDE };
    }
    const composed = composeMcpConfig(manifest.mcpConfig, { folder: files.folder, values: values.values, platform, home: context.home, paths: path });
    // "Node.js ships with Claude for macOS and Windows" (anthropics/mcpb README.md, "Node.js Bundles"):
    // Claude Desktop runs a node bundle with its own Node, which toolrun cannot run; it runs the Node
    // it runs on, as `mcp verify` of a bundle does (expand-config.ts). A `node` looked up on the PATH
    // Claude Desktop gives servers (launchd's on macOS, without nvm's folders) is often missing.
    const command = manifest.serverType === 'node' && composed.command === 'node' ? process.execPath : composed.command;
    // The composed text is final: no `${` in it is a variable any more (host-literal, as readServerMap's 'literal' style).
    const literal = (value: string) => value.replaceAll('${', () => '$${');
    // cwd is not set: UNCONFIRMED which folder Claude Desktop starts an extension's server in.
    server.entry = { command: literal(command), args: composed.args.map(literal), env: Object.fromEntries(Object.entries(composed.env).map(([name, value]) => [name, literal(value)])) };
    return { servers: [server], problems: [] } satisfies HostFileRead;
  };
}

type Manifest = { name: string; serverType: unknown; mcpConfig: McpbManifestAny['server']['mcp_config']; raw: McpbManifestAny };

/** What the reader needs of the manifest, checked enough that composing it cannot throw; the rest is `mcp verify`'s job. */
function checkedManifest(text: string): Manifest | { problem: string } {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { problem: `${parsed.problem}; reinstall the extension in Claude Desktop` };
  const value = parsed.value;
  const fix = 'reinstall the extension in Claude Desktop, or check the bundle with toolrun mcp verify';
  if (!isObject(value)) return { problem: `not a JSON object, so not an extension manifest; ${fix}` };
  if (typeof value.name !== 'string' || value.name === '') return { problem: `"name" is missing or not a string; ${fix}` };
  const server = value.server;
  const config = isObject(server) ? server.mcp_config : undefined;
  if (!isObject(server) || !isObject(config)) return { problem: `"server.mcp_config" is missing or not an object, so toolrun cannot tell how Claude Desktop starts it; ${fix}` };
  if (typeof config.command !== 'string') return { problem: `"server.mcp_config.command" is missing or not a string; ${fix}` };
  if (config.args !== undefined && !(Array.isArray(config.args) && config.args.every((arg) => typeof arg === 'string')))
    return { problem: `"server.mcp_config.args" is not a list of strings; ${fix}` };
  if (config.env !== undefined && !(isObject(config.env) && Object.values(config.env).every((item) => typeof item === 'string')))
    return { problem: `"server.mcp_config.env" is not an object of strings; ${fix}` };
  const overrides = config.platform_overrides;
  if (overrides !== undefined && !(isObject(overrides) && Object.values(overrides).every(isObject))) return { problem: `"server.mcp_config.platform_overrides" is not an object of objects; ${fix}` };
  const options = value.user_config;
  if (options !== undefined && !(isObject(options) && Object.values(options).every(isObject))) return { problem: `"user_config" is not an object of options; ${fix}` };
  return { name: value.name, serverType: server.type, mcpConfig: config as Manifest['mcpConfig'], raw: value as unknown as McpbManifestAny };
}

type Settings = { isEnabled: unknown; orgBlockedReason?: string; userConfig: Record<string, unknown> };

/** The settings file: missing means not enabled (Claude Desktop does not start an extension without one). */
function readSettings(file: string): Settings | { problem: string } {
  const read = readHostFile(file);
  if (read === undefined) return { isEnabled: false, userConfig: {} };
  if ('problem' in read) return read;
  const parsed = parseHostJson(read.text);
  const fix = 'fix it, or turn the extension off and on in Claude Desktop → Settings → Extensions to have it written again';
  if ('problem' in parsed) return { problem: `${parsed.problem}; ${fix}` };
  if (!isObject(parsed.value)) return { problem: `not a JSON object; ${fix}` };
  const { isEnabled, orgBlockedReason, userConfig = {} } = parsed.value;
  if (!isObject(userConfig)) return { problem: `"userConfig" is not an object; ${fix}` };
  const blocked = orgBlockedReason === undefined || orgBlockedReason === null ? undefined : typeof orgBlockedReason === 'string' ? orgBlockedReason : JSON.stringify(orgBlockedReason);
  return { isEnabled, orgBlockedReason: blocked, userConfig };
}

/** A stored value as userConfigValues takes a given one (text, or a list for a `multiple` option); null and objects are no value. */
function asGiven(value: unknown): string | string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
