import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { runInProcess } from '../helpers/run-in-process.js';

const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const NEEDS_TOKEN = fixtureServerScript('needs-token-server.js');

/** A macOS user (TOOLRUN_HOST_PLATFORM=darwin) with a Claude Desktop config holding these servers. */
function claudeDesktopHome(servers: Record<string, unknown>) {
  const root = mkdtempSync(join(tmpdir(), 'toolrun-launch-'));
  const home = join(root, 'home');
  const project = join(root, 'repo');
  mkdirSync(join(project, '.git'), { recursive: true });
  const file = join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  const env = { HOME: home, XDG_CONFIG_HOME: undefined, APPDATA: undefined, TOOLRUN_HOST_PLATFORM: 'darwin' };
  return { root, home, project, env };
}

describe('host-faithful spawn (--host)', () => {
  it("gives a Claude Desktop server the SDK's six variables, launchd's PATH and the entry's env; --terminal-env gives it yours", async () => {
    const f = claudeDesktopHome({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { FROM_ENTRY: 'yes' } } });
    const env = { ...f.env, ONLY_IN_MY_SHELL: 'shell-value', USER: 'tester', LOGNAME: 'tester', TERM: 'xterm', SHELL: '/bin/sh' };
    const host = await runInProcess(['--host', 'claude-desktop', 'exec', 'ev:get-env', '--json'], { cwd: f.project, env });
    expect(host.exitCode, host.stderr).toBe(0);
    const seen = JSON.parse((JSON.parse(host.stdout) as { result: string }).result) as Record<string, string>;
    const names = Object.keys(seen).filter((name) => name !== 'TOOLRUN_SERVER_ID');
    expect(names.sort()).toEqual(['FROM_ENTRY', 'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']);
    expect(seen.PATH).toBe('/usr/bin:/bin:/usr/sbin:/sbin');
    const terminal = await runInProcess(['--host', 'claude-desktop', '--terminal-env', 'exec', 'ev:get-env', '--json'], { cwd: f.project, env });
    expect(terminal.exitCode, terminal.stderr).toBe(0);
    const all = JSON.parse((JSON.parse(terminal.stdout) as { result: string }).result) as Record<string, string>;
    expect(all.ONLY_IN_MY_SHELL).toBe('shell-value');
    expect(all.PATH).toBe(process.env.PATH);
  });

  it('doctor --host: a server needing a variable the host does not pass fails (exit 4) and the host step names the variable, never its value', async () => {
    const f = claudeDesktopHome({ tok: { command: process.execPath, args: [NEEDS_TOKEN] } });
    const env = { ...f.env, FIXTURE_API_TOKEN: 'tok-value-1234567890' };
    const result = await runInProcess(['--host', 'claude-desktop', 'mcp', 'doctor', 'tok'], { cwd: f.project, env });
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stdout).toContain(
      '✖ host        works with your terminal\'s environment, not as Claude Desktop starts it: the server needs FIXTURE_API_TOKEN, which your shell exports and Claude Desktop does not pass\n    fix: add it to the entry\'s "env" with its value ("FIXTURE_API_TOKEN": "…"): Claude Desktop expands no variables in its config',
    );
    expect(result.stdout + result.stderr).not.toContain('tok-value-1234567890');
    const json = await runInProcess(['--host', 'claude-desktop', 'mcp', 'doctor', 'tok', '--json'], { cwd: f.project, env });
    const step = (JSON.parse(json.stdout) as { steps: Array<{ id: string; status: string; data: Record<string, unknown> }> }).steps.find((s) => s.id === 'host');
    expect(step).toMatchObject({ status: 'fail', data: { way: 'host', host: 'claude-desktop', terminal_way: 'works' } });
    const terminal = await runInProcess(['--host', 'claude-desktop', '--terminal-env', 'mcp', 'doctor', 'tok'], { cwd: f.project, env });
    expect(terminal.exitCode, terminal.stdout).toBe(0);
    expect(terminal.stdout).toContain("✔ host        started with your terminal's environment, PATH and folder (--terminal-env), not as Claude Desktop starts it");
  });

  it("doctor --host: a command only on your PATH is named with its absolute path, not on the host's PATH", async () => {
    const f = claudeDesktopHome({ mine: { command: 'my-everything' } });
    const bin = join(f.root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'my-everything'), `#!/bin/sh\nexec '${process.execPath}' '${EVERYTHING}' stdio\n`);
    chmodSync(join(bin, 'my-everything'), 0o755);
    const result = await runInProcess(['--host', 'claude-desktop', 'mcp', 'doctor', 'mine'], { cwd: f.project, env: { ...f.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toContain("✖ config      command not found: 'my-everything' is not on Claude Desktop's PATH");
    expect(result.stdout).toContain(
      `✖ host        works with your terminal's environment, not as Claude Desktop starts it: \`my-everything\` is at ${bin}/my-everything, which is not on Claude Desktop's PATH (/usr/bin:/bin:/usr/sbin:/sbin)\n    fix: use the absolute path as the entry's "command": "${bin}/my-everything"`,
    );
  });

  it('a server that works the host way has a passing host step saying how it was started', async () => {
    const f = claudeDesktopHome({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    const result = await runInProcess(['--host', 'claude-desktop', 'mcp', 'doctor', 'ev'], { cwd: f.project, env: f.env });
    expect(result.exitCode, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /✔ host {8}started as Claude Desktop starts it: only HOME, LOGNAME, PATH, SHELL, TERM, USER of your variables, and the entry's env; PATH \/usr\/bin:\/bin:\/usr\/sbin:\/sbin, in /,
    );
  });

  it('--terminal-env without --host is a usage error', async () => {
    const result = await runInProcess(['--terminal-env', 'list']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--terminal-env goes with --host');
    const hosts = await runInProcess(['--terminal-env', 'hosts']);
    expect(hosts.exitCode).toBe(2);
    expect(hosts.stderr).toContain('hosts lists every host: it takes none of --host, --config and --terminal-env');
  });
});
