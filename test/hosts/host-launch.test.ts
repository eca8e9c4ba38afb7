import { describe, expect, it } from 'vitest';
import { hostLaunch } from '../../src/hosts/host-launch.js';
import { hostEnvironment } from '../../src/process/launch-environment.js';
import { HOST_NAMES } from '../../src/hosts/host-types.js';

const caller = { HOME: '/home/u', PATH: '/opt/homebrew/bin:/usr/bin', GITHUB_TOKEN: 'ghp_x', TERM: 'xterm', NVM_DIR: '/home/u/.nvm' };

describe('hostEnvironment', () => {
  it('keeps only the listed names of a list host (Cline: the SDK default list)', () => {
    const env = hostEnvironment(hostLaunch('cline', 'linux'), caller, {}, 'linux');
    expect(env).toEqual({ HOME: '/home/u', PATH: '/opt/homebrew/bin:/usr/bin', TERM: 'xterm' });
  });

  it('passes everything for an "all" host, and the entry env wins over the caller', () => {
    const env = hostEnvironment(hostLaunch('claude-code', 'linux'), caller, { GITHUB_TOKEN: 'from-entry', EXTRA: '1' }, 'linux');
    expect(env).toEqual({ ...caller, GITHUB_TOKEN: 'from-entry', EXTRA: '1' });
  });

  it('replaces PATH with launchd PATH for Claude Desktop on macOS only, and an entry PATH still wins', () => {
    expect(hostEnvironment(hostLaunch('claude-desktop', 'darwin'), caller, {}, 'darwin').PATH).toBe('/usr/bin:/bin:/usr/sbin:/sbin');
    expect(hostEnvironment(hostLaunch('claude-desktop', 'linux'), caller, {}, 'linux').PATH).toBe(caller.PATH);
    expect(hostEnvironment(hostLaunch('claude-desktop', 'darwin'), caller, { PATH: '/mine' }, 'darwin').PATH).toBe('/mine');
    expect(hostEnvironment(hostLaunch('vscode', 'darwin'), caller, {}, 'darwin').PATH).toBe(caller.PATH);
  });

  it("appends an entry's PATH to VS Code's own, and lets Continue's own PATH win over the entry's", () => {
    expect(hostEnvironment(hostLaunch('vscode', 'linux'), caller, { PATH: '/extra' }, 'linux').PATH).toBe(`${caller.PATH}:/extra`);
    expect(hostEnvironment(hostLaunch('continue', 'linux'), caller, { PATH: '/extra' }, 'linux').PATH).toBe(caller.PATH);
    expect(hostEnvironment(hostLaunch('cline', 'linux'), caller, { PATH: '/extra' }, 'linux').PATH).toBe('/extra');
  });

  it('on win32 compares names case-insensitively: Path is inherited, and the entry PATH replaces it', () => {
    const winCaller = { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', windir: 'C:\\Windows', AppData: 'C:\\Users\\u\\AppData\\Roaming' };
    const launch = hostLaunch('cline', 'win32');
    expect(hostEnvironment(launch, winCaller, {}, 'win32')).toEqual({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', AppData: 'C:\\Users\\u\\AppData\\Roaming' });
    expect(hostEnvironment(launch, winCaller, { PATH: 'D:\\bin' }, 'win32')).toEqual({ PATH: 'D:\\bin', SystemRoot: 'C:\\Windows', AppData: 'C:\\Users\\u\\AppData\\Roaming' });
    // The same names off Windows are different variables.
    expect(hostEnvironment(launch, winCaller, {}, 'linux')).toEqual({});
  });
});

describe('hostLaunch', () => {
  it('has a row with a title and sources for every host', () => {
    for (const host of HOST_NAMES) {
      const launch = hostLaunch(host, 'linux');
      expect(launch.host).toBe(host);
      expect(launch.title).not.toBe('');
      expect(launch.sources.length).toBeGreaterThan(0);
    }
  });

  it('applies platform overrides: the SDK Windows list, Roo wrapping in cmd /c on Windows only', () => {
    expect(hostLaunch('cline', 'win32').inherits).toContain('SYSTEMROOT');
    expect(hostLaunch('cline', 'darwin').inherits).toContain('SHELL');
    expect(hostLaunch('roo', 'win32').resolution).toBe('shell');
    expect(hostLaunch('roo', 'darwin').resolution).toBe('path');
  });
});
