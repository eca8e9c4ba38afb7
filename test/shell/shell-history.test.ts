import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyPath, HISTORY_LINES, ShellHistory } from '../../src/shell/shell-history.js';
import { tempDir } from '../helpers/temp-config.js';

// Issue #31 item 1: root running `toolrun shell` with another user's HOME must not follow that user's
// links: a history folder or file that is a link or not ours means no history, said once.
describe('the shell history file', () => {
  const victim = (lines = 1) => {
    const path = join(tempDir(), 'victim.txt');
    writeFileSync(path, 'precious\n'.repeat(lines));
    return path;
  };
  /** Everything the shell does with its history in one session. */
  const session = (state: string) => {
    const history = new ShellHistory(historyPath({ XDG_STATE_HOME: state }));
    const loaded = history.load();
    const problems = [loaded.problem, history.add('echo message=one'), history.add('echo message=two')].filter(Boolean);
    history.trim();
    return { loaded, problems };
  };

  it('is kept 0600 in a 0700 folder, and read back newest first', () => {
    const state = tempDir();
    expect(session(state).problems).toEqual([]);
    const path = join(state, 'toolrun', 'history');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, 'toolrun')).mode & 0o777).toBe(0o700);
    expect(new ShellHistory(path).load()).toEqual({ lines: ['echo message=two', 'echo message=one'] });
  });

  it('a history file that is a symbolic link: no history, said once; its target neither appended to nor trimmed', () => {
    const state = tempDir();
    mkdirSync(join(state, 'toolrun'), { mode: 0o700 });
    const target = victim(HISTORY_LINES + 5);
    symlinkSync(target, join(state, 'toolrun', 'history'));
    const { loaded, problems } = session(state);
    expect(loaded.lines).toEqual([]);
    expect(problems).toEqual([`shell history off: ${join(state, 'toolrun', 'history')}: it is a symbolic link; set XDG_STATE_HOME to a folder of your own`]);
    expect(readFileSync(target, 'utf8')).toBe('precious\n'.repeat(HISTORY_LINES + 5));
  });

  it('a history folder that is a symbolic link: no history, said once; the folder it points to keeps its mode and stays empty', () => {
    const state = tempDir();
    const elsewhere = tempDir();
    execFileSync('chmod', ['0755', elsewhere]);
    symlinkSync(elsewhere, join(state, 'toolrun'));
    const { problems } = session(state);
    expect(problems).toEqual([`shell history off: ${join(state, 'toolrun')}: it is a symbolic link; set XDG_STATE_HOME to a folder of your own`]);
    expect(statSync(elsewhere).mode & 0o777).toBe(0o755);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)("root with another user's HOME: nothing created, chmodded or written there", () => {
    const home = tempDir();
    const state = join(home, '.local', 'state');
    mkdirSync(join(state, 'toolrun'), { recursive: true, mode: 0o755 });
    writeFileSync(join(state, 'toolrun', 'history'), 'ls\n', { mode: 0o644 });
    execFileSync('chown', ['-R', '65534', home]);
    const { loaded, problems } = session(state);
    expect(loaded.lines).toEqual([]);
    expect(problems).toEqual([`shell history off: ${state}: it is a folder owned by another user (uid 65534); set XDG_STATE_HOME to a folder of your own`]);
    expect(statSync(join(state, 'toolrun')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(state, 'toolrun', 'history'), 'utf8')).toBe('ls\n');

    // The same HOME before that user ever ran the shell: nothing is created in it either.
    const fresh = tempDir();
    execFileSync('chown', ['65534', fresh]);
    expect(session(join(fresh, '.local', 'state')).problems).toEqual([`shell history off: ${fresh}: it is a folder owned by another user (uid 65534); set XDG_STATE_HOME to a folder of your own`]);
    expect(readdirSync(fresh)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)("a history file of another user in root's own folder: not read, not written", () => {
    const state = tempDir();
    mkdirSync(join(state, 'toolrun'), { mode: 0o700 });
    const path = join(state, 'toolrun', 'history');
    writeFileSync(path, 'ls\n');
    execFileSync('chown', ['65534', path]);
    const { loaded, problems } = session(state);
    expect(loaded.lines).toEqual([]);
    expect(problems).toEqual([`shell history off: ${path}: it is owned by another user (uid 65534); set XDG_STATE_HOME to a folder of your own`]);
    expect(readFileSync(path, 'utf8')).toBe('ls\n');
  });
});
