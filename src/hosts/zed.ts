import type { HostReader } from './host-types.js';
import { isObject, readCommonEntry, serverMapOf } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';

/**
 * Zed: `settings.json` (JSONC) in ~/.config/zed (Linux and macOS; $XDG_CONFIG_HOME/zed when set on
 * Linux only: zed.dev/docs/configuring-zed, "User Settings File"),
 * %APPDATA%\Zed on Windows, project `.zed/settings.json`; servers under `context_servers`, each
 * `{command, args, env}` or `{url, headers}`, with `enabled` and `source: "custom"`; older settings
 * nest `command: {path, args, env}`. Source: zed.dev/docs/ai/mcp (zed-industries/zed
 * docs/src/ai/mcp.md); the Windows path is from Zed's docs on settings files, not re-checked here.
 * Zed expands no variables in these entries as far as found (unconfirmed): literal.
 */
export const readZed: HostReader = (text, context) => {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { servers: [], problems: [parsed.problem] };
  return serverMapOf(parsed.value, 'context_servers', context, { style: 'literal', handled: ['enabled', 'source', 'settings'] }, (name, raw, ctx, options) => {
    // The older nested form: "command": {"path", "args", "env"}.
    const flat = isObject(raw.command) ? { ...raw, command: raw.command.path, args: raw.command.args, env: raw.command.env } : raw;
    const server = readCommonEntry(name, flat, ctx, options);
    if (raw.enabled === false) server.disabled = true;
    if (raw.settings !== undefined) server.unsupported.push('settings');
    // An extension's server: Zed starts what the extension says (zed.dev/docs/ai/mcp "As Extensions");
    // the entry has no command and no url, only the extension's `settings`. Zed reads context_servers
    // untagged (zed-industries/zed crates/settings_content/src/project.rs@68db2132,
    // ContextServerSettingsContent: Stdio {command…} | Http {url…} | Extension {enabled, remote,
    // settings}), so a settings-only entry is an extension's whether or not it says
    // `"source": "extension"` (the tag of older Zed, which still writes it).
    if (server.entry.command === undefined && server.entry.url === undefined && (raw.source === 'extension' || raw.settings !== undefined))
      server.hostOnly = {
        reason: `provided by a Zed extension: only Zed knows how to start it`,
        fix: 'add it as a custom server ("source": "custom", with its command) to run it with toolrun',
        extension: true,
      };
    return server;
  });
};
