import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/run-toolrun.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { SERVER_EVERYTHING } from '../helpers/temp-config.js';
import { fixtureHome as sharedFixtureHome } from '../helpers/host-fixtures.js';

/** hosts.test.ts's fake user and project, with a writer that returns the path and toolrun run there. */
function fixtureHome() {
  const f = sharedFixtureHome();
  const write = (path: string, text: string) => {
    f.write(path, text);
    return path;
  };
  const toolrun = (...args: string[]) => runInProcess(args, { cwd: f.project, env: f.env });
  return { ...f, write, toolrun };
}

const q = JSON.stringify;

/** A Claude Desktop config in JSONC: comments, trailing commas, a remote entry, and the everything server. */
const DESKTOP = `{
  // servers I use
  "mcpServers": {
    "everything": {
      "command": ${q(process.execPath)}, // node
      "args": [${q(SERVER_EVERYTHING)}, "stdio"],
      "env": { "GREETING": "hi" },
    },
    "notes": { "command": "notes-server", "args": ["--dir", "/tmp"] },
    "remote": { "url": "https://example.com/mcp" },
  },
}
`;

const INITIALIZE = `${q({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fake-host', version: '1' } } })}\n`;

/**
 * Starts an entry's command line as a host does (its own small PATH, the entry's env, another
 * folder), sends initialize and returns the answer; then closes stdin, as a host leaving does.
 */
async function initializeAsHost(words: string[], entryEnv: Record<string, string>, cwd: string) {
  const marker = newProcessMarker();
  const child = spawn(words[0]!, words.slice(1), { cwd, env: { PATH: '/usr/bin:/bin', ...entryEnv, ...marker.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.write(INITIALIZE);
  const answer = await new Promise<{ id: number; result?: { serverInfo?: { name?: string } } }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in time; stderr: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n')[0]!;
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { id: number });
      }
    });
    void exited.then(() => reject(new Error(`exited before answering; stderr: ${stderr}`)));
  });
  child.stdin.end();
  const code = await exited;
  expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  return { answer, stderr, code };
}

function backupsIn(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.includes('.toolrun-wrap-'));
}

// SPEC §13: `mcp tap --wrap HOST SERVER` puts the tap into the host's own entry; --unwrap takes it out, exactly.
describe('toolrun mcp tap --wrap / --unwrap', () => {
  it('wraps a Claude Desktop entry so that the host, running it, talks to the real server through the tap, and --record records it; --unwrap gives the bytes back', async () => {
    const f = fixtureHome();
    const file = f.write(join(f.home, '.config', 'Claude', 'claude_desktop_config.json'), DESKTOP);
    chmodSync(file, 0o640);
    const record = join(f.root, 'everything.rec');
    const wrap = await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'everything', '--record', record);
    expect(wrap.stderr).toBe('');
    expect(wrap.exitCode).toBe(0);
    const [backup] = backupsIn(dirname(file));
    expect(wrap.stdout).toBe(`wrapped everything in claude-desktop (${file}): backup at ${join(dirname(file), backup!)}; restart claude-desktop to pick it up`);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    const wrapped = readFileSync(file, 'utf8');
    // Comments and the other entries as they were; only command and args changed.
    expect(wrapped).toContain('// servers I use');
    expect(wrapped).toContain('"notes": { "command": "notes-server", "args": ["--dir", "/tmp"] },');
    const entry = parseJsonc(wrapped, [], { allowTrailingComma: true }).mcpServers.everything as { command: string; args: string[]; env: Record<string, string> };
    expect(entry).toEqual({
      command: process.execPath,
      args: [BIN, 'mcp', 'tap', '--name', 'everything', '--record', record, '--', process.execPath, SERVER_EVERYTHING, 'stdio'],
      env: { GREETING: 'hi' },
    });

    const { answer, stderr } = await initializeAsHost([entry.command, ...entry.args], entry.env, f.root);
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: expect.stringContaining('everything') } } });
    expect(stderr).not.toContain('✖');
    const lines = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir?: string; text?: string; server?: string });
    expect(lines[0]).toMatchObject({ toolrun_recording: 1, server: 'everything' });
    expect(lines.find((line) => line.dir === 'send')?.text).toContain('"method":"initialize"');
    expect(lines.some((line) => line.dir === 'recv' && line.text?.includes('serverInfo'))).toBe(true);

    const unwrap = await f.toolrun('mcp', 'tap', '--unwrap', 'claude-desktop', 'everything');
    expect(unwrap.exitCode).toBe(0);
    expect(unwrap.stdout).toContain('restored everything in claude-desktop');
    expect(readFileSync(file, 'utf8')).toBe(DESKTOP);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(backupsIn(dirname(file))).toEqual([]);
    const again = await f.toolrun('mcp', 'tap', '--unwrap', 'claude-desktop', 'everything');
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain("'everything' in claude-desktop");
    expect(again.stderr).toContain('is not wrapped by toolrun');
  });

  it("keeps each host's shape, and each wrapped entry runs: Codex TOML, Continue YAML, opencode's command array, Zed's nested command", async () => {
    const f = fixtureHome();
    const codex = f.write(
      join(f.home, '.codex', 'config.toml'),
      `# codex\nmodel = "o3"\n\n[mcp_servers.everything]  # the test server\ncommand = ${q(process.execPath)}\nargs = [\n  ${q(SERVER_EVERYTHING)}, # the bundle\n  "stdio",\n]\n\n[mcp_servers.everything.env]\nGREETING = "hi"\n`,
    );
    const cont = f.write(
      join(f.home, '.continue', 'config.yaml'),
      `name: me\nmcpServers:\n  # test server\n  - name: everything\n    command: ${process.execPath}\n    args:\n      - ${SERVER_EVERYTHING}\n      - stdio\n`,
    );
    const opencode = f.write(
      join(f.home, '.config', 'opencode', 'opencode.json'),
      `{\n  "mcp": {\n    "everything": { "type": "local", "command": [${q(process.execPath)}, ${q(SERVER_EVERYTHING)}, "stdio"] }\n  }\n}\n`,
    );
    const zed = f.write(
      join(f.home, '.config', 'zed', 'settings.json'),
      `// zed\n{\n  "context_servers": {\n    "everything": { "command": { "path": ${q(process.execPath)}, "args": [${q(SERVER_EVERYTHING)}, "stdio"], "env": {} } },\n  },\n}\n`,
    );
    const originals = new Map([codex, cont, opencode, zed].map((path) => [path, readFileSync(path, 'utf8')]));
    const read: Record<string, (text: string) => string[]> = {
      codex: (text) => {
        const entry = (parseToml(text) as { mcp_servers: Record<string, { command: string; args: string[] }> }).mcp_servers.everything!;
        return [entry.command, ...entry.args];
      },
      continue: (text) => {
        const entry = (parseYaml(text) as { mcpServers: Array<{ command: string; args: string[] }> }).mcpServers[0]!;
        return [entry.command, ...entry.args];
      },
      opencode: (text) => parseJsonc(text).mcp.everything.command as string[],
      zed: (text) => {
        const command = parseJsonc(text, [], { allowTrailingComma: true }).context_servers.everything.command as { path: string; args: string[] };
        return [command.path, ...command.args];
      },
    };
    const files: Record<string, string> = { codex, continue: cont, opencode, zed };
    for (const [host, path] of Object.entries(files)) {
      const wrap = await f.toolrun('mcp', 'tap', '--wrap', host, 'everything');
      expect(wrap.exitCode, wrap.stderr).toBe(0);
      const words = read[host]!(readFileSync(path, 'utf8'));
      expect(words).toEqual([process.execPath, BIN, 'mcp', 'tap', '--name', 'everything', '--', process.execPath, SERVER_EVERYTHING, 'stdio']);
      const { answer } = await initializeAsHost(words, {}, f.root);
      expect(answer.result?.serverInfo?.name).toContain('everything');
    }
    expect(readFileSync(codex, 'utf8')).toContain('[mcp_servers.everything]  # the test server\ncommand = ');
    expect(readFileSync(codex, 'utf8')).toContain('\n\n[mcp_servers.everything.env]\nGREETING = "hi"\n');
    expect(readFileSync(cont, 'utf8')).toContain('  # test server\n  - name: everything\n');
    for (const host of Object.keys(files)) expect((await f.toolrun('mcp', 'tap', '--unwrap', host, 'everything')).exitCode).toBe(0);
    for (const [path, text] of originals) expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('--unwrap after another entry was edited puts back only this entry, keeping the edit; after this entry was edited, refuses (exit 2) and leaves the file alone; --force puts it back', async () => {
    const f = fixtureHome();
    const file = f.write(join(f.home, '.config', 'Claude', 'claude_desktop_config.json'), DESKTOP);
    expect((await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'everything')).exitCode).toBe(0);
    // The host (or the user) edits another server meanwhile.
    writeFileSync(file, readFileSync(file, 'utf8').replace('["--dir", "/tmp"]', '["--dir", "/srv"]'));
    const unwrap = await f.toolrun('--json', 'mcp', 'tap', '--unwrap', 'claude-desktop', 'everything');
    expect(unwrap.exitCode).toBe(0);
    expect(JSON.parse(unwrap.stdout)).toMatchObject({ action: 'restored', host: 'claude-desktop', scope: 'user', server: 'everything', path: file, restored: 'entry' });
    expect(readFileSync(file, 'utf8')).toBe(DESKTOP.replace('["--dir", "/tmp"]', '["--dir", "/srv"]'));

    writeFileSync(file, DESKTOP);
    expect((await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'everything')).exitCode).toBe(0);
    const edited = readFileSync(file, 'utf8').replace('"GREETING": "hi"', '"GREETING": "hello"');
    writeFileSync(file, edited);
    const refused = await f.toolrun('mcp', 'tap', '--unwrap', 'claude-desktop', 'everything');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('was edited since toolrun wrapped it: not restored, the file is unchanged');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(backupsIn(dirname(file))).toHaveLength(1);
    const forced = await f.toolrun('mcp', 'tap', '--unwrap', 'claude-desktop', 'everything', '--force');
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain('over the edits made to it since (--force)');
    expect(readFileSync(file, 'utf8')).toBe(DESKTOP);
  });

  it('--unwrap accepts an entry the host re-formatted but did not change (values compared, not bytes), and puts the original back', async () => {
    const f = fixtureHome();
    const file = f.write(join(f.home, '.config', 'Claude', 'claude_desktop_config.json'), DESKTOP);
    expect((await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'everything')).exitCode).toBe(0);
    // The host saves the file its own way: its JSON, re-indented, comments gone, the same values.
    const reformatted = `${JSON.stringify(parseJsonc(readFileSync(file, 'utf8')), null, 4)}\n`;
    writeFileSync(file, reformatted);
    const unwrap = await f.toolrun('mcp', 'tap', '--unwrap', 'claude-desktop', 'everything');
    expect(unwrap.exitCode, unwrap.stderr).toBe(0);
    expect(unwrap.stdout).not.toContain('--force');
    const restored = parseJsonc(readFileSync(file, 'utf8')) as { mcpServers: { everything: { command: string; args: string[] } } };
    expect(restored.mcpServers.everything).toEqual({ command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'], env: { GREETING: 'hi' } });
  });

  it('refuses (exit 2, nothing written): a remote entry, an entry already wrapped, a stale backup without --force', async () => {
    const f = fixtureHome();
    const file = f.write(join(f.home, '.config', 'Claude', 'claude_desktop_config.json'), DESKTOP);
    const remote = await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'remote');
    expect(remote.exitCode).toBe(2);
    expect(remote.stderr).toContain("'remote' is a remote server (https://example.com/mcp): tap is for stdio servers only");
    expect(readFileSync(file, 'utf8')).toBe(DESKTOP);
    expect(backupsIn(dirname(file))).toEqual([]);

    expect((await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'notes')).exitCode).toBe(0);
    const wrapped = readFileSync(file, 'utf8');
    const twice = await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'notes');
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('already runs through toolrun mcp tap');
    expect(readFileSync(file, 'utf8')).toBe(wrapped);

    // Put back by hand: the backup is stale; a new wrap says so, and replaces it only with --force.
    writeFileSync(file, DESKTOP);
    const stale = await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'notes');
    expect(stale.exitCode).toBe(2);
    expect(stale.stderr).toContain('a backup of an earlier wrap');
    expect(readFileSync(file, 'utf8')).toBe(DESKTOP);
    const forced = await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'notes', '--force');
    expect(forced.exitCode).toBe(0);
    expect(forced.stderr).toContain('replaced the backup of an earlier wrap');
    expect((await f.toolrun('mcp', 'tap', '--unwrap', 'claude-desktop', 'notes')).exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(DESKTOP);

    const usage = await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', '--', 'npx', 'srv');
    expect(usage.exitCode).toBe(2);
    expect((await f.toolrun('mcp', 'tap', '--wrap', 'claude-desktop', 'missing')).stderr).toContain("claude-desktop has no server 'missing' (it has: everything, notes, remote)");
  });

  it('edits the file whose entry the host uses (project over user), or the scope asked for', async () => {
    const f = fixtureHome();
    const entry = (name: string) => `{"mcpServers": {"fs": {"command": "${name}"}}}\n`;
    const user = f.write(join(f.home, '.cursor', 'mcp.json'), entry('user-fs'));
    const project = f.write(join(f.project, '.cursor', 'mcp.json'), entry('project-fs'));
    expect((await f.toolrun('mcp', 'tap', '--wrap', 'cursor', 'fs')).exitCode).toBe(0);
    expect(readFileSync(user, 'utf8')).toBe(entry('user-fs'));
    expect(readFileSync(project, 'utf8')).toContain('"--", "project-fs"]');
    expect((await f.toolrun('mcp', 'tap', '--wrap', 'cursor:user', 'fs')).exitCode).toBe(0);
    expect(readFileSync(user, 'utf8')).toContain('"--", "user-fs"]');
    expect((await f.toolrun('mcp', 'tap', '--unwrap', 'cursor', 'fs')).exitCode).toBe(0);
    expect((await f.toolrun('mcp', 'tap', '--unwrap', 'cursor:user', 'fs')).exitCode).toBe(0);
    expect([readFileSync(user, 'utf8'), readFileSync(project, 'utf8')]).toEqual([entry('user-fs'), entry('project-fs')]);
    expect([...backupsIn(dirname(user)), ...backupsIn(dirname(project))]).toEqual([]);
  });
});
