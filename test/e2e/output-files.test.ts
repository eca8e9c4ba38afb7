import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';
import { withoutSlowToolLine } from '../helpers/slow-tool-line.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue #19 item 11 (and item 21's "-o silently overwrites"): files toolrun writes for the user never
// go through a link planted in the folder, and never replace what is there without saying so.
describe('files written by exec -o DIR and resources read -o FILE', () => {
  const config = () => writeTempConfig({ mcpServers: { v2: fixtureServer('v2-server.js') } });
  /** A file outside the output folder, which a planted link points to. */
  const victim = () => {
    const path = join(tempDir(), 'victim.txt');
    writeFileSync(path, 'precious\n');
    return path;
  };
  const isPng = (path: string) => readFileSync(path).subarray(1, 4).toString() === 'PNG';

  it('exec -o DIR does not write through a link planted under the name it would use: the image gets another name, stderr says so', async () => {
    const dir = tempDir();
    const target = victim();
    symlinkSync(target, join(dir, 'image-1.png'));
    const result = await runInProcess(['--config', config(), 'exec', 'v2:image', '-o', dir]);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(readlinkSync(join(dir, 'image-1.png'))).toBe(target);
    const saved = join(dir, 'image-1-1.png');
    expect(isPng(saved)).toBe(true);
    expect(result.stdout).toBe(`[image/png, 68 B] saved to ${saved}`);
    expect(result.stderr).toContain(`${join(dir, 'image-1.png')} exists (a symbolic link); saved as ${saved} instead`);
  });

  it.runIf(process.getuid?.() === 0)('exec -o DIR refuses a DIR that is a link another user planted (root would write into its target)', async () => {
    const target = tempDir();
    const planted = join(tempDir(), 'out');
    symlinkSync(target, planted);
    execFileSync('chown', ['-h', '65534', planted]);
    const result = await runInProcess(['--config', config(), 'exec', 'v2:image', '-o', planted]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`cannot save into ${planted}: it is a symbolic link owned by another user (uid 65534); name a folder of your own`);
    expect(readdirSync(target)).toEqual([]);
  });

  it('exec -o DIR twice keeps the first file: the second gets the next free name', async () => {
    const dir = join(tempDir(), 'out');
    const first = await runInProcess(['--config', config(), 'exec', 'v2:image', '-o', dir]);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).not.toContain('exists');
    writeFileSync(join(dir, 'image-1.png'), 'edited by the user');
    const second = await runInProcess(['--json', '--config', config(), 'exec', 'v2:image', '-o', dir]);
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout).files).toEqual([join(dir, 'image-1-1.png')]);
    expect(readFileSync(join(dir, 'image-1.png'), 'utf8')).toBe('edited by the user');
    expect(second.stderr).toContain(`${join(dir, 'image-1.png')} exists; saved as ${join(dir, 'image-1-1.png')} instead`);
    const third = await runInProcess(['--json', '--config', config(), 'exec', 'v2:image', '-o', dir]);
    expect(JSON.parse(third.stdout).files).toEqual([join(dir, 'image-1-2.png')]);
    expect(readdirSync(dir).sort()).toEqual(['image-1-1.png', 'image-1-2.png', 'image-1.png']);
  });

  it('exec -o naming a file, not a folder: exit 1 saying so, the file untouched', async () => {
    const file = victim();
    const result = await runInProcess(['--config', config(), 'exec', 'v2:image', '-o', file]);
    expect(result.exitCode).toBe(1);
    // The call succeeded before the save failed: a busy machine's slow-tool warning may come first.
    expect(withoutSlowToolLine(result.stderr)).toBe(`✖ v2:image: cannot save into ${file}: it is not a folder`);
    expect(readFileSync(file, 'utf8')).toBe('precious\n');
  });

  it('resources read -o FILE refuses a symbolic link (exit 1, naming it) and leaves its target alone', async () => {
    const dir = tempDir();
    const target = victim();
    const file = join(dir, 'pixel.png');
    symlinkSync(target, file);
    const result = await runInProcess(['--config', config(), 'resources', 'read', 'test://pixel.png', '-o', file]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`✖ cannot write ${file}: it is a symbolic link, and toolrun never writes through or replaces one; remove it or name another file`);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('resources read -o FILE refuses what is not a regular file (a device, a folder): exit 1', async () => {
    const folder = join(tempDir(), 'folder');
    mkdirSync(folder);
    const result = await runInProcess(['--config', config(), 'resources', 'read', 'test://pixel.png', '-o', folder]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`✖ cannot write ${folder}: it is a folder, not a regular file; name a file`);
  });

  it('resources read -o FILE replaces an existing file atomically, and a link planted at the temporary name does not matter', async () => {
    const dir = tempDir();
    const target = victim();
    const file = join(dir, 'pixel.png');
    writeFileSync(file, 'old contents');
    // The first temporary name toolrun tries is predictable: a link there must not be written through.
    symlinkSync(target, join(dir, '.pixel.png.toolrun.tmp'));
    const result = await runInProcess(['--config', config(), 'resources', 'read', 'test://pixel.png', '-o', file]);
    expect(result.exitCode).toBe(0);
    expect(isPng(file)).toBe(true);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(readdirSync(dir).sort()).toEqual(['.pixel.png.toolrun.tmp', 'pixel.png']);
    expect(result.stderr).toContain(`written to ${file} (replaced the file that was there)`);
  });

  it('resources read -o FILE in a folder that does not exist: exit 1 naming it', async () => {
    const file = join(tempDir(), 'missing', 'pixel.png');
    const result = await runInProcess(['--config', config(), 'resources', 'read', 'test://pixel.png', '-o', file]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`✖ cannot write ${file}: the folder ${join(file, '..')} does not exist`);
    expect(existsSync(file)).toBe(false);
  });
});

// Issue #31 item 1: a recording is streamed into its file, so it cannot be written atomically; it is
// still never written through a link or into a file that is not this user's.
describe('files streamed by mcp tap --record and mcp check-stdout --save', () => {
  const echoServer = join(FIXTURES, 'servers', 'echo-bytes-server.js');
  const victim = () => {
    const path = join(tempDir(), 'victim.txt');
    writeFileSync(path, 'precious\n');
    return path;
  };
  const tap = (record: string) => runToolrun(['mcp', 'tap', '--record', record, '--', process.execPath, echoServer], { input: '', stdin: undefined });

  it('tap --record through a symbolic link: exit 2 in one line, the link and its target untouched', async () => {
    const target = victim();
    const record = join(tempDir(), 'fs.rec');
    symlinkSync(target, record);
    const result = await tap(record);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`✖ cannot write --record ${record}: it is a symbolic link, and toolrun never writes through or replaces one; remove it or name another file`);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(readlinkSync(record)).toBe(target);
  });

  it.runIf(process.getuid?.() === 0)("tap --record into another user's file, or a folder another user's link points from: refused, nothing written", async () => {
    const record = victim();
    execFileSync('chown', ['65534', record]);
    const owned = await tap(record);
    expect(owned.exitCode).toBe(2);
    expect(owned.stderr).toBe(`✖ cannot write --record ${record}: it is owned by another user (uid 65534); name a file of your own`);
    expect(readFileSync(record, 'utf8')).toBe('precious\n');

    const folder = tempDir();
    const planted = join(tempDir(), 'logs');
    symlinkSync(folder, planted);
    execFileSync('chown', ['-h', '65534', planted]);
    const linked = await tap(join(planted, 'fs.rec'));
    expect(linked.exitCode).toBe(2);
    expect(linked.stderr).toBe(`✖ cannot write --record ${join(planted, 'fs.rec')}: its folder: it is a symbolic link owned by another user (uid 65534); name a file in a folder of your own`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('tap --record into a second hard link of a file: refused (root would write into the file it names elsewhere)', async () => {
    const target = victim();
    const record = join(join(target, '..'), 'fs.rec');
    linkSync(target, record);
    const result = await tap(record);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`✖ cannot write --record ${record}: it has other hard links; remove it or name another file`);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });

  it('tap --record replaces a regular file of this user, as before', async () => {
    const record = victim();
    const result = await tap(record);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(record, 'utf8').split('\n')[0]!)).toMatchObject({ toolrun_recording: 1 });
  });

  it('check-stdout --save through a symbolic link: exit 2 in one line, before the server starts, the target untouched', async () => {
    const target = victim();
    const save = join(tempDir(), 'zwave.rec');
    symlinkSync(target, save);
    const result = await runInProcess(['--config', join(FIXTURES, 'home.json'), 'mcp', 'check-stdout', 'zwave', '--save', save]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`✖ cannot write --save ${save}: it is a symbolic link, and toolrun never writes through or replaces one; remove it or name another file`);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });
});
