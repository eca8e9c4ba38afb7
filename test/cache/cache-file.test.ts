import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCacheFile, writeCacheFile } from '../../src/cache/cache-file.js';
import { tempDir } from '../helpers/temp-config.js';

// Issue #19 item 13: cache files are regular files of this user, size-capped, never followed.
describe('readCacheFile', () => {
  it('reads this user’s regular file within the limit', () => {
    const file = join(tempDir(), 'f');
    writeFileSync(file, 'hello');
    expect(readCacheFile(file, 5)?.toString()).toBe('hello');
  });

  it('refuses a file over the limit, a link, a FIFO (without hanging), a device, a folder, a missing file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'big'), 'x'.repeat(6));
    writeFileSync(join(dir, 'target'), 'hello');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(readCacheFile(join(dir, 'big'), 5)).toBeUndefined();
    expect(readCacheFile(join(dir, 'link'), 5)).toBeUndefined();
    expect(readCacheFile(join(dir, 'fifo'), 5)).toBeUndefined();
    expect(readCacheFile('/dev/zero', 5)).toBeUndefined();
    expect(readCacheFile(dir, 5)).toBeUndefined();
    expect(readCacheFile(join(dir, 'missing'), 5)).toBeUndefined();
  });

  it('refuses another user’s file, and with privateOnly a file others can read', () => {
    const file = join(tempDir(), 'f');
    writeFileSync(file, 'hello');
    chmodSync(file, 0o644);
    expect(readCacheFile(file, 5, { privateOnly: true })).toBeUndefined();
    chmodSync(file, 0o600);
    expect(readCacheFile(file, 5, { privateOnly: true })?.toString()).toBe('hello');
    if (process.getuid?.() !== 0) return console.log('[skip] chown to another user needs root');
    chownSync(file, 65534, 65534);
    expect(readCacheFile(file, 5)).toBeUndefined();
  });
});

describe('writeCacheFile', () => {
  it('replaces a planted link or FIFO under its name (the entry, not what it points to), mode 0600', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim'), 'precious');
    symlinkSync(join(dir, 'victim'), join(dir, 'index'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(writeCacheFile(join(dir, 'index'), 'new')).toBe(true);
    expect(writeCacheFile(join(dir, 'fifo'), 'new')).toBe(true);
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious');
    expect(readCacheFile(join(dir, 'index'), 10, { privateOnly: true })?.toString()).toBe('new');
    expect(readCacheFile(join(dir, 'fifo'), 10)?.toString()).toBe('new');
    expect(readdirSync(dir).sort()).toEqual(['fifo', 'index', 'victim']);
  });
});
