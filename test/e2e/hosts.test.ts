import { execFileSync } from 'node:child_process';
import { truncateSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToolrun } from '../helpers/run-toolrun.js';
import { allTwelve, echoServer, fixtureHome } from '../helpers/host-fixtures.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';

interface HostsJson {
  platform: string;
  files: Array<{ host: string; scope: string; path: string; servers: number; problems: string[]; entries: Array<{ name: string; disabled: boolean; unresolved: string[]; unsupported: string[] }> }>;
}

// Plain `toolrun hosts [--json]` is answered by bin/toolrun.js before the CLI loads (src/fast-hosts.ts):
// those calls spawn toolrun; the commands with --host run in-process.
describe('toolrun hosts', () => {
  it('finds all 12 hosts at their Linux paths, with scope, file, server count; no env value or header printed', async () => {
    const f = allTwelve();
    const result = await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout) as HostsJson;
    const found = json.files.map((file) => `${file.host}:${file.scope}:${file.entries.map((entry) => entry.name).join(',')}`);
    expect(found.sort()).toEqual(
      [
        'claude-desktop:user:desktop',
        'claude-code:user:ccuser',
        'claude-code:project:ccproject',
        'claude-code:local:cclocal',
        'cursor:user:cursor',
        'vscode:user:vsuser',
        'vscode:project:vs',
        'windsurf:user:surf',
        'codex:user:codex',
        'gemini:user:gem',
        'zed:user:zed',
        'cline:user:cline',
        'roo:user:roo',
        'continue:user:cont',
        'continue:project:contblock',
        'opencode:user:oc',
      ].sort(),
    );
    expect(new Set(json.files.map((file) => file.host)).size).toBe(12);
    expect(result.stdout).not.toContain('sk-secret');
    expect(result.stdout).not.toContain('hunter2');
    const human = await runToolrun(['hosts'], { cwd: f.project, env: f.env });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain(`cursor user ${join(f.home, '.cursor', 'mcp.json')}  1 server`);
    expect(human.stdout).not.toContain('hunter2');
  });

  it('macOS and Windows layouts (TOOLRUN_HOST_PLATFORM): Application Support, %APPDATA%', async () => {
    const mac = fixtureHome();
    mac.write(join(mac.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { d: { command: 'x' } } }));
    mac.write(join(mac.home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json'), JSON.stringify({ servers: { v: { command: 'x' } } }));
    const onMac = JSON.parse((await runToolrun(['hosts', '--json'], { cwd: mac.project, env: { ...mac.env, TOOLRUN_HOST_PLATFORM: 'darwin' } })).stdout) as HostsJson;
    expect(onMac.files.map((file) => file.host)).toEqual(['claude-desktop', 'vscode']);
    const win = fixtureHome();
    win.write(join(win.env.APPDATA, 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { d: { command: 'x' } } }));
    win.write(join(win.env.APPDATA, 'Zed', 'settings.json'), JSON.stringify({ context_servers: { z: { command: 'x' } } }));
    const onWindows = JSON.parse((await runToolrun(['hosts', '--json'], { cwd: win.project, env: { ...win.env, TOOLRUN_HOST_PLATFORM: 'win32' } })).stdout) as HostsJson;
    expect(onWindows.platform).toBe('win32');
    expect(onWindows.files.map((file) => file.host)).toEqual(['claude-desktop', 'zed']);
  });

  it('bad input is a problem, not a crash: malformed (line:column), a FIFO (no hang), a symlink loop; a symlink is followed', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), '{\n  "mcpServers": {\n    "a": }\n}');
    mkdirSync(join(f.home, '.gemini'), { recursive: true });
    execFileSync('mkfifo', [join(f.home, '.gemini', 'settings.json')]);
    mkdirSync(join(f.home, '.codeium', 'windsurf'), { recursive: true });
    symlinkSync(join(f.home, '.codeium', 'windsurf', 'mcp_config.json'), join(f.home, '.codeium', 'windsurf', 'mcp_config.json'));
    f.write(join(f.root, 'real-zed.json'), JSON.stringify({ context_servers: { linked: { command: 'x' } } }));
    mkdirSync(join(f.env.XDG_CONFIG_HOME, 'zed'), { recursive: true });
    symlinkSync(join(f.root, 'real-zed.json'), join(f.env.XDG_CONFIG_HOME, 'zed', 'settings.json'));
    const result = await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env, timeout: 10_000 });
    expect(result.exitCode).toBe(0);
    const problems = Object.fromEntries((JSON.parse(result.stdout) as HostsJson).files.map((file) => [file.host, file.problems.join('; ') || file.entries.map((entry) => entry.name).join(',')]));
    expect(problems).toEqual({ cursor: '3:10: invalid JSON: value expected', gemini: expect.stringContaining('not a regular file'), windsurf: expect.stringContaining('loop'), zed: 'linked' });
    // With --host, the malformed file is a config error (exit 3) naming it.
    const run = await runInProcess(['--host', 'cursor', 'list'], { cwd: f.project, env: f.env });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain(`${join(f.home, '.cursor', 'mcp.json')}: 3:10: invalid JSON`);
  });

  it('a 10 MB host file with 500 servers is read quickly', async () => {
    const f = fixtureHome();
    const servers = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`s${index}`, { command: 'node', args: ['x'.repeat(20_000)] }]));
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
    const started = Date.now();
    const result = await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as HostsJson).files[0]!.servers).toBe(500);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('a host file over 64 MB', () => {
  it('is a problem in hosts, not read (a sparse file: the size is checked before reading), and --host refuses it (exit 3)', async () => {
    const f = fixtureHome();
    const file = join(f.home, '.cursor', 'mcp.json');
    f.write(file, '{"mcpServers": {}}');
    truncateSync(file, 65 * 1024 * 1024);
    const result = await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as HostsJson).files).toEqual([expect.objectContaining({ host: 'cursor', path: file, servers: 0, problems: ['larger than 64 MB: not read'] })]);
    const run = await runInProcess(['--host', 'cursor', 'list'], { cwd: f.project, env: f.env });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain(`cursor config ${file}: larger than 64 MB: not read`);
  });
});

describe('--host NAME[:SCOPE]', () => {
  it('runs a real server from a Cursor config: toolrun --host cursor exec everything:echo message=hi', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { everything: echoServer() } }));
    const result = await runCleanInProcess(['--host', 'cursor', 'exec', 'everything:echo', 'message=hi'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Echo: hi');
  }, 60_000);

  it('a server only a host has: the error names the host and the exact --host command (exit 2)', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { everything: echoServer() } }));
    const result = await runInProcess(['exec', 'everything:echo', 'message=hi'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("cursor's config has it: toolrun --host cursor exec everything:echo message=hi");
    const doctor = await runInProcess(['mcp', 'doctor', 'everything'], { cwd: f.project, env: f.env });
    expect(doctor.exitCode).toBe(2);
    expect(doctor.stderr).toContain('toolrun --host cursor mcp doctor everything');
  });

  it('unknown host, --host with --config: usage errors (exit 2)', async () => {
    const f = fixtureHome();
    const unknown = await runInProcess(['--host', 'notepad', 'list'], { cwd: f.project, env: f.env });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('claude-desktop, claude-code, cursor, vscode, windsurf, codex, gemini, zed, cline, roo, continue, opencode');
    const both = await runInProcess(['--host', 'cursor', '--config', 'x.json', 'list'], { cwd: f.project, env: f.env });
    expect(both.exitCode).toBe(2);
  });

  it('scopes merge as the host does (project over user); :user picks one; disabled servers are skipped', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { x: { command: 'user-cmd' }, off: { command: 'c', disabled: true } } }));
    f.write(join(f.project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { x: { command: 'project-cmd' } } }));
    const merged = await runInProcess(['--host', 'cursor', 'mcp', 'list', '--json'], { cwd: f.project, env: f.env });
    expect(merged.stdout).toContain('project-cmd');
    expect(merged.stdout).not.toContain('user-cmd');
    expect(merged.stdout).not.toContain('"off"');
    const user = await runInProcess(['--host', 'cursor:user', 'mcp', 'list', '--json'], { cwd: f.project, env: f.env });
    expect(user.stdout).toContain('user-cmd');
  });

  it('a host-only variable (${input:…}) refuses that server, named, not started (exit 4 as unreachable), never passed on', async () => {
    const f = fixtureHome();
    f.write(
      join(f.project, '.vscode', 'mcp.json'),
      JSON.stringify({ inputs: [{ id: 'tok', type: 'promptString' }], servers: { everything: { type: 'stdio', ...echoServer({ env: { TOKEN: '${input:tok}' } }) } } }),
    );
    const listed = JSON.parse((await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env })).stdout) as HostsJson;
    expect(listed.files[0]!.entries[0]!.unresolved).toEqual(['${input:tok}']);
    const result = await runCleanInProcess(['--host', 'vscode', 'exec', 'everything:echo', 'message=hi'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP server 'everything' not started\n  Reason: it uses ${input:tok}, which only vscode can fill in");
  });
});

// Review findings on the first hosts build: what another user could plant, and what must not print.
describe('toolrun hosts: files others could plant, secrets in arguments', () => {
  it('outside a repository only the current folder is a project: a .cursor/mcp.json in a parent is not read', async () => {
    const f = fixtureHome();
    const shared = join(f.root, 'shared');
    const work = join(shared, 'x', 'y');
    mkdirSync(work, { recursive: true });
    f.write(join(shared, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'sh', args: ['-c', 'touch planted'] } } }));
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'node', args: ['mine.js'] } } }));
    const result = await runToolrun(['hosts', '--json'], { cwd: work, env: f.env });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout) as { project: string; files: Array<{ path: string; entries: Array<{ command?: string }> }> };
    expect(json.project).toBe(work);
    expect(json.files.map((file) => file.path)).toEqual([join(f.home, '.cursor', 'mcp.json')]);
  });

  it('a host file writable by every user, or owned by another user, is a problem and not used', async () => {
    const f = fixtureHome();
    const file = join(f.project, '.cursor', 'mcp.json');
    f.write(file, JSON.stringify({ mcpServers: { planted: { command: 'sh' } } }));
    execFileSync('chmod', ['666', file]);
    const open = await runToolrun(['hosts'], { cwd: f.project, env: f.env });
    expect(open.stdout).toContain(`cursor project ${file}  0 servers\n  ✖ writable by every user: not used (chmod o-w it)`);
    const run = await runInProcess(['--host', 'cursor', 'exec', 'planted:x'], { cwd: f.project, env: f.env });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('writable by every user: not used');
    if (process.getuid?.() === 0) {
      execFileSync('chmod', ['644', file]);
      execFileSync('chown', ['65534', file]);
      const other = await runToolrun(['hosts'], { cwd: f.project, env: f.env });
      expect(other.stdout).toContain('✖ owned by another user (uid 65534): not used');
    }
  });

  it('secret-looking arguments (docker -e API_KEY=…, --header X-API-Key: …) are masked in hosts and hosts --json', async () => {
    const f = fixtureHome();
    f.write(
      join(f.home, '.cursor', 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          d: { command: 'docker', args: ['run', '-e', 'API_KEY=hunter2hunter2', 'img'] },
          r: { command: 'npx', args: ['mcp-remote', 'https://h/mcp', '--header', 'X-API-Key: abcdef123456'] },
        },
      }),
    );
    for (const args of [['hosts'], ['hosts', '--json']]) {
      const result = await runToolrun(args, { cwd: f.project, env: f.env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toMatch(/hunter2hunter2|abcdef123456/);
      expect(result.stdout).toContain('API_KEY=***');
      expect(result.stdout).toContain('X-API-Key: ***');
    }
  });

  it('run from the home folder, a user file is not listed again as a project file', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { c: { command: 'node' } } }));
    const result = await runToolrun(['hosts', '--json'], { cwd: f.home, env: f.env });
    const json = JSON.parse(result.stdout) as { files: Array<{ host: string; scope: string }> };
    expect(json.files.map((file) => `${file.host}:${file.scope}`)).toEqual(['cursor:user']);
  });

  it('a line break in a server name cannot forge a line of toolrun hosts', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'evil\nfake 0 servers': { command: 'node' } } }));
    const result = await runToolrun(['hosts'], { cwd: f.project, env: f.env });
    expect(result.stdout).toContain('  evil\\nfake 0 servers  stdio node');
    expect(result.stdout.split('\n').some((line) => line.startsWith('fake'))).toBe(false);
  });

  it("session start --host keeps a host's servers warm: the holder builds its config from the host's files, the command finds it, --terminal-env is another holder", async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { e: echoServer() } }));
    const options = { cwd: f.project, env: { ...f.env, XDG_RUNTIME_DIR: f.root } };
    const run = (args: string[]) => runInProcess(['--host', 'cursor', ...args], options);
    // An exec with a holder up goes through bin/toolrun.js's warm path (src/fast-exec.ts): spawned.
    const exec = (args: string[]) => runToolrun(['--host', 'cursor', ...args], options);
    try {
      const start = await run(['session', 'start']);
      expect(start.exitCode, start.stderr).toBe(0);
      expect((await exec(['exec', 'e:echo', 'message=warm'])).stdout).toBe('Echo: warm');
      const list = JSON.parse((await run(['--json', 'session', 'list'])).stdout) as { holders: Array<{ servers: Array<{ name: string; calls: number }> }> };
      expect(list.holders).toEqual([expect.objectContaining({ servers: [expect.objectContaining({ name: 'e', calls: 1 })] })]);
      // Started your terminal's way, it is not the host's holder.
      await exec(['--terminal-env', 'exec', 'e:echo', 'message=cold']);
      const after = JSON.parse((await run(['--json', 'session', 'list'])).stdout) as { holders: Array<{ servers: Array<{ calls: number }> }> };
      expect(after.holders[0]!.servers[0]!.calls).toBe(1);
    } finally {
      expect((await run(['session', 'stop'])).exitCode).toBe(0);
    }
  });
});
