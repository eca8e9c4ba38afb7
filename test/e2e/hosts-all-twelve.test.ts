import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveInClaudeCode, EVERYTHING, fixtureHome, trustInGemini } from '../helpers/host-fixtures.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Each of the 12 hosts, end to end: a real server (server-everything) in that host's own file and
 * shape, run with `--host`, started as that host starts it (SPEC §13): the entry's env always, the
 * caller's other variables only for hosts that pass the whole environment.
 */
const node = process.execPath;
const entry = { command: node, args: [EVERYTHING, 'stdio'], env: { FROM_ENTRY: 'yes' } };
const json = (value: unknown) => JSON.stringify(value, null, 2);

const HOSTS: Array<[host: string, passesAll: boolean, write: (f: ReturnType<typeof fixtureHome>) => void]> = [
  ['claude-desktop', false, (f) => f.write(join(f.home, '.config', 'Claude', 'claude_desktop_config.json'), json({ mcpServers: { ev: entry } }))],
  [
    'claude-code',
    true,
    (f) => {
      f.write(join(f.project, '.mcp.json'), json({ mcpServers: { ev: { type: 'stdio', ...entry } } }));
      approveInClaudeCode(f, ['ev']);
    },
  ],
  ['cursor', false, (f) => f.write(join(f.home, '.cursor', 'mcp.json'), json({ mcpServers: { ev: entry } }))],
  ['vscode', true, (f) => f.write(join(f.project, '.vscode', 'mcp.json'), `// workspace servers\n${json({ inputs: [], servers: { ev: { type: 'stdio', ...entry } } })}`)],
  ['windsurf', true, (f) => f.write(join(f.home, '.codeium', 'windsurf', 'mcp_config.json'), json({ mcpServers: { ev: entry } }))],
  [
    'codex',
    false,
    (f) =>
      f.write(
        join(f.home, '.codex', 'config.toml'),
        `# Codex\n[mcp_servers.ev]\ncommand = ${JSON.stringify(node)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n\n[mcp_servers.ev.env]\nFROM_ENTRY = "yes"\n`,
      ),
  ],
  [
    'gemini',
    true,
    (f) => {
      f.write(join(f.home, '.gemini', 'settings.json'), json({ mcpServers: { ev: entry } }));
      trustInGemini(f);
    },
  ],
  ['zed', true, (f) => f.write(join(f.home, '.config', 'zed', 'settings.json'), json({ context_servers: { ev: { source: 'custom', ...entry } } }))],
  ['cline', false, (f) => f.write(join(f.home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), json({ mcpServers: { ev: entry } }))],
  ['roo', false, (f) => f.write(join(f.project, '.roo', 'mcp.json'), json({ mcpServers: { ev: entry } }))],
  [
    'continue',
    false,
    (f) =>
      f.write(
        join(f.home, '.continue', 'config.yaml'),
        `name: mine\nmcpServers:\n  - name: ev\n    command: ${node}\n    args:\n      - ${EVERYTHING}\n      - stdio\n    env:\n      FROM_ENTRY: "yes"\n`,
      ),
  ],
  [
    'opencode',
    true,
    (f) => f.write(join(f.home, '.config', 'opencode', 'opencode.json'), json({ mcp: { ev: { type: 'local', command: [node, EVERYTHING, 'stdio'], environment: { FROM_ENTRY: 'yes' } } } })),
  ],
];

describe('--host with each of the 12 hosts, a real server started as the host starts it', () => {
  it.concurrent.each(HOSTS)('%s', async (host, passesAll, write) => {
    const f = fixtureHome();
    write(f);
    const result = await runInProcess(['--host', host, 'exec', 'ev:get-env', '--json'], { cwd: f.project, env: { ...f.env, ONLY_IN_MY_SHELL: 'shell', TERM: 'xterm' } });
    expect(result.exitCode, result.stderr).toBe(0);
    const env = JSON.parse((JSON.parse(result.stdout) as { result: string }).result) as Record<string, string>;
    expect(env.FROM_ENTRY).toBe('yes');
    expect(env.TERM).toBe('xterm');
    expect(env.ONLY_IN_MY_SHELL).toBe(passesAll ? 'shell' : undefined);
  });
});
