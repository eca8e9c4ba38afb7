import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

/**
 * Issue #48 item 1: the files round 4 writes or reads (`test --junit/--html`, `test --from -o`,
 * `__snapshots__/`, `mcp lint --sarif/--junit`) go through the checks `exec -o` makes: never through
 * a link, never into another user's folder (root would write where that user points), and a snapshot
 * that is a link is never read, so never printed.
 */
const asRoot = process.getuid?.() === 0;
const OTHER_USER = '65534';
// Not shaped like a token (toolrun masks those anyway): a password a diff would print as it is.
const SECRET = 'hunter2-planted-password';

/** A folder of another user, and a link of theirs to a folder of ours (where root's report would land). */
function foreignFolders(): { owned: string; planted: string; target: string } {
  const owned = tempDir();
  execFileSync('chown', [OTHER_USER, owned]);
  const target = tempDir();
  const planted = join(tempDir(), 'reports');
  symlinkSync(target, planted);
  execFileSync('chown', ['-h', OTHER_USER, planted]);
  return { owned, planted, target };
}

describe('files round 4 writes and reads, through planted links and folders (issue #48 item 1)', () => {
  const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
  const suite = () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'snap.toolrun.yaml'), 'server: everything\ntests:\n  - name: leak\n    call: echo\n    args: { message: hi }\n    expect: { snapshot: true }\n');
    return dir;
  };
  /** A file outside the project holding a secret, shaped as a snapshot of the test so a diff would show it. */
  const secretFile = () => {
    const path = join(tempDir(), 'credentials.json');
    writeFileSync(path, JSON.stringify({ leak: { content: [{ type: 'text', text: SECRET }] } }));
    return path;
  };

  it('a snapshot file that is a link to a secret file: exit 3 in one line naming the link, the secret never printed', async () => {
    const dir = suite();
    const secret = secretFile();
    mkdirSync(join(dir, '__snapshots__'));
    const snapshot = join(dir, '__snapshots__', 'snap.snap.json');
    symlinkSync(secret, snapshot);
    // Today's code read it: the human diff, --json's "expected" and the JUnit report all carried the secret.
    const runs = [];
    for (const args of [
      ['test', 'snap.toolrun.yaml', '--junit', 'report.xml'],
      ['--json', 'test', 'snap.toolrun.yaml'],
      ['test', 'snap.toolrun.yaml', '--update'],
    ])
      runs.push(await runInProcess(['--config', config, ...args], { cwd: dir }));
    expect(runs.map((result) => result.stdout + result.stderr + (existsSync(join(dir, 'report.xml')) ? readFileSync(join(dir, 'report.xml'), 'utf8') : '')).join('')).not.toContain(SECRET);
    for (const result of runs) {
      expect(result.exitCode, result.stderr).toBe(3);
      expect(result.stderr).toContain(`${snapshot} is a symbolic link; snapshots are read and written only as a regular file (remove the link)`);
    }
    expect(readlinkSync(snapshot)).toBe(secret);
    expect(JSON.parse(readFileSync(secret, 'utf8')).leak.content[0].text).toBe(SECRET);
  });

  it('a snapshot in a __snapshots__ that is a link to another folder: refused under CI too (nothing written there, nothing read)', async () => {
    const dir = suite();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'snap.snap.json'), readFileSync(secretFile()));
    symlinkSync(elsewhere, join(dir, '__snapshots__'));
    const result = await runInProcess(['--config', config, 'test', 'snap.toolrun.yaml'], { cwd: dir, env: { CI: 'true' } });
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`${join(dir, '__snapshots__')} is a symbolic link; snapshots are read and written only in a real folder beside the test file (remove the link)`);
    expect(readdirSync(elsewhere)).toEqual(['snap.snap.json']);
  });

  it('test --junit, mcp lint --sarif and test --from -o onto a planted link: exit 2 before any work, the file it points to untouched', async () => {
    const dir = suite();
    const victim = join(tempDir(), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dir, 'out.xml'));
    const runs = [
      ['--junit', ['--config', config, 'test', 'snap.toolrun.yaml', '--junit', 'out.xml']],
      ['--sarif', ['mcp', 'lint', '--snapshot', join(process.cwd(), 'fixtures/lint/problems.snapshot.json'), '--sarif', 'out.xml']],
      ['-o', ['test', '--from', join(dir, 'missing.rec'), '-o', 'out.xml']],
    ] as const;
    for (const [flag, args] of runs) {
      const result = await runInProcess([...args], { cwd: dir });
      expect(result.stderr).toBe(`✖ cannot write ${flag} out.xml: it is a symbolic link, and toolrun never writes through or replaces one; remove it or name another file`);
      expect(result.exitCode).toBe(2);
    }
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readlinkSync(join(dir, 'out.xml'))).toBe(victim);
    expect(existsSync(join(dir, '__snapshots__'))).toBe(false);
  });

  it.runIf(asRoot)("test --junit and --html into another user's folder, or through their link to a folder: refused, nothing written", async () => {
    const { owned, planted, target } = foreignFolders();
    const dir = suite();
    for (const [flag, file, reason] of [
      ['--junit', join(owned, 'report.xml'), `it is a folder owned by another user (uid ${OTHER_USER})`],
      ['--html', join(planted, 'report.html'), `it is a symbolic link owned by another user (uid ${OTHER_USER})`],
    ] as const) {
      const result = await runInProcess(['--config', config, 'test', 'snap.toolrun.yaml', flag, file], { cwd: dir });
      // Exit 2 before any server starts, in one line: not a refused write after the run.
      expect(result.stderr).toBe(`✖ cannot write ${flag} ${file}: its folder: ${reason}; name a file in a folder of your own`);
      expect(result.exitCode).toBe(2);
    }
    expect(readdirSync(owned)).toEqual([]);
    expect(readdirSync(target)).toEqual([]);
  });

  it.runIf(asRoot)("test --from REC -o FILE into another user's folder, or beside a __snapshots__ of theirs: refused, nothing written there", async () => {
    const recording = join(tempDir(), 'echo.rec');
    const line = (dir: string, message: object) => ({ t: 0, dir, text: JSON.stringify({ jsonrpc: '2.0', ...message }) });
    writeFileSync(
      recording,
      [
        { toolrun_recording: 1, server: 'everything', command: 'node server.js', started: '2026-12-02T05:00:00.000Z' },
        line('send', { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }),
        line('recv', { id: 1, result: { content: [{ type: 'text', text: 'Echo: hi' }] } }),
      ]
        .map((entry) => JSON.stringify(entry))
        .join('\n') + '\n',
    );
    const { planted, target } = foreignFolders();
    const out = join(planted, 'echo.toolrun.yaml');
    const linked = await runInProcess(['--config', config, 'test', '--from', recording, '-o', out]);
    expect(linked.stderr).toBe(`✖ cannot write -o ${out}: its folder: it is a symbolic link owned by another user (uid ${OTHER_USER}); name a file in a folder of your own`);
    expect(linked.exitCode).toBe(2);
    expect(readdirSync(target)).toEqual([]);

    const dir = tempDir();
    mkdirSync(join(dir, '__snapshots__'));
    execFileSync('chown', [OTHER_USER, join(dir, '__snapshots__')]);
    const beside = await runInProcess(['--config', config, 'test', '--from', recording, '-o', 'echo.toolrun.yaml'], { cwd: dir });
    expect(beside.stderr).toContain(`cannot write the snapshots: ${join(dir, '__snapshots__')}: it is owned by another user (uid ${OTHER_USER}); keep the test file in a folder of your own`);
    expect(beside.exitCode).toBe(3);
    expect(readdirSync(dir)).toEqual(['__snapshots__']);
    expect(readdirSync(join(dir, '__snapshots__'))).toEqual([]);
  });

  it.runIf(asRoot)("mcp lint --sarif and --junit into another user's folder, or through their link: refused, nothing written", async () => {
    const { owned, planted, target } = foreignFolders();
    for (const [flag, file, reason] of [
      ['--sarif', join(owned, 'lint.sarif'), `it is a folder owned by another user (uid ${OTHER_USER})`],
      ['--junit', join(planted, 'lint.xml'), `it is a symbolic link owned by another user (uid ${OTHER_USER})`],
    ] as const) {
      const result = await runInProcess(['mcp', 'lint', '--snapshot', 'fixtures/lint/problems.snapshot.json', flag, file]);
      // Exit 2 before any server starts, in one line: not a refused write after the run.
      expect(result.stderr).toBe(`✖ cannot write ${flag} ${file}: its folder: ${reason}; name a file in a folder of your own`);
      expect(result.exitCode).toBe(2);
    }
    expect(readdirSync(owned)).toEqual([]);
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(join(planted, 'lint.xml'))).toBe(false);
  });
});
