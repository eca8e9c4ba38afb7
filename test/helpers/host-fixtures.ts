import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUNDLED_EVERYTHING } from './bundled-servers.js';

export const EVERYTHING = BUNDLED_EVERYTHING;

/** A fake user and project: HOME, XDG_CONFIG_HOME, APPDATA and a repository folder, in a temp dir. */
export function fixtureHome() {
  const root = mkdtempSync(join(tmpdir(), 'toolrun-hosts-'));
  const home = join(root, 'home');
  const project = join(root, 'repo');
  mkdirSync(join(project, '.git'), { recursive: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), APPDATA: join(home, 'AppData', 'Roaming'), USERPROFILE: home, CODEX_HOME: undefined, TOOLRUN_HOST_PLATFORM: 'linux' };
  return { root, home, project, write, env };
}

export const echoServer = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra });

/** Every one of the 12 hosts with one server, at its Linux path. */
export function allTwelve() {
  const f = fixtureHome();
  const config = join(f.home, '.config');
  const code = join(config, 'Code', 'User');
  const one = (name: string) => JSON.stringify({ mcpServers: { [name]: { command: 'node', args: ['s.js'] } } });
  f.write(join(config, 'Claude', 'claude_desktop_config.json'), one('desktop'));
  f.write(
    join(f.home, '.claude.json'),
    JSON.stringify({ mcpServers: { ccuser: { command: 'u' } }, projects: { [f.project]: { hasTrustDialogAccepted: true, mcpServers: { cclocal: { command: 'l' } } } } }),
  );
  f.write(join(f.project, '.mcp.json'), one('ccproject'));
  // Approved as Claude Code's approval dialog writes it, in a folder the user trusted.
  f.write(join(f.project, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['ccproject'] }));
  trustInGemini(f);
  f.write(join(f.home, '.cursor', 'mcp.json'), one('cursor'));
  f.write(join(f.project, '.vscode', 'mcp.json'), '// JSONC\n{"inputs": [], "servers": {"vs": {"type": "stdio", "command": "node",},},}');
  f.write(join(code, 'mcp.json'), '{"servers": {"vsuser": {"type": "http", "url": "https://example.com/mcp"}}}');
  f.write(join(f.home, '.codeium', 'windsurf', 'mcp_config.json'), JSON.stringify({ mcpServers: { surf: { serverUrl: 'https://example.com/sse' } } }));
  f.write(join(f.home, '.codex', 'config.toml'), '[mcp_servers.codex]\ncommand = "node"\nstartup_timeout_sec = 30\n[mcp_servers.codex.env]\nAPI_TOKEN = "sk-secretsecretsecret1234"\n');
  f.write(join(f.home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { gem: { httpUrl: 'https://example.com/mcp', headers: { Authorization: 'Bearer hunter2hunter2' } } } }));
  f.write(join(config, 'zed', 'settings.json'), '{"context_servers": {"zed": {"command": "node", "args": []}}}');
  f.write(join(code, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), one('cline'));
  f.write(join(code, 'globalStorage', 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), one('roo'));
  f.write(join(f.home, '.continue', 'config.yaml'), 'name: c\nmcpServers:\n  - name: cont\n    command: node\n');
  f.write(join(f.project, '.continue', 'mcpServers', 'pw.yaml'), 'mcpServers:\n  - name: contblock\n    command: npx\n');
  f.write(join(config, 'opencode', 'opencode.json'), JSON.stringify({ mcp: { oc: { type: 'local', command: ['node', 's.js'], enabled: true } } }));
  return f;
}

/** The project trusted in Gemini CLI (~/.gemini/trustedFolders.json), which starts no server in an untrusted folder. */
export function trustInGemini(f: ReturnType<typeof fixtureHome>): void {
  f.write(join(f.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [f.project]: 'TRUST_FOLDER' }));
}

/** A project .mcp.json server approved in Claude Code, as its approval dialog records it. */
export function approveInClaudeCode(f: ReturnType<typeof fixtureHome>, names: string[]): void {
  f.write(join(f.home, '.claude.json'), JSON.stringify({ projects: { [f.project]: { hasTrustDialogAccepted: true } } }));
  f.write(join(f.project, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: names }));
}
