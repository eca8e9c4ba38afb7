import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { hasSystemTool } from '../helpers/system-tools.js';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { BIN, ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { withoutSlowToolLine } from '../helpers/slow-tool-line.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

/** A real terminal: tmux on its own socket, the shell in its one pane. */
class Tmux {
  readonly socket = `toolrun-shell-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
  start(command: string, env: Record<string, string>, columns = 120): void {
    const exports = Object.entries(env)
      .map(([key, value]) => `${key}='${value}'`)
      .join(' ');
    this.tmux('new-session', '-d', '-s', 'shell', '-x', String(columns), '-y', '40', `cd '${ROOT}' && env ${exports} '${process.execPath}' '${BIN}' ${command}; echo "[exited $?]"; sleep 30`);
  }
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'shell', ...keys);
  }
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'shell');
  }
  /** Polls the screen until `pattern` shows (the screen is in the failure message otherwise). */
  async waitFor(pattern: RegExp | string, ms = 10_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const screen = this.screen();
      // A long line wraps at the pane's width: it is looked for with the rows joined too.
      const joined = screen.replace(/\n/g, '');
      const found = (text: string) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text));
      if (found(screen) || found(joined)) return screen;
      if (Date.now() > deadline) throw new Error(`not on the screen within ${ms} ms: ${pattern}\n--- screen (end) ---\n${JSON.stringify(screen.slice(-1500))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

// SPEC §17: `toolrun shell`, driven in a real terminal (tmux send-keys / capture-pane).
describe.skipIf(!hasSystemTool('tmux', 'toolrun shell in a terminal'))('toolrun shell in a terminal', () => {
  const runtime = tempDir();
  const state = tempDir();
  const marker = newProcessMarker();
  // The slow server notes each call as it starts: Ctrl-C is typed once the call is in flight.
  const slowStarted = join(tempDir(), 'slow-started');
  const config = writeTempConfig({
    mcpServers: {
      everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
      slow: fixtureServer('slow-tool-server.js', { env: { SLOW_STARTED_FILE: slowStarted } }),
      crashy: fixtureServer('exit-mid-call-server.js'),
    },
  });
  const env = { XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: state, XDG_CACHE_HOME: tempDir(), NO_COLOR: '1', ...marker.env };
  const term = new Tmux();
  beforeAll(async () => {
    term.start(`--config '${config}' shell`, env);
    await term.waitFor(/toolrun shell: everything, slow, crashy \(\d+ tools\)[\s\S]*toolrun>/, 20_000);
  }, 30_000);
  afterAll(async () => {
    term.kill();
    await runInProcess(['session', 'stop', '--all'], { env });
  });

  it('calls a tool and prints its result, footer on the same screen', async () => {
    term.keys('echo message=hi', 'Enter');
    // The footer and the next prompt are two writes: wait for the prompt, not just the footer.
    const screen = await term.waitFor(/✔ echo · mcp:everything · [\d.]+ ms\ntoolrun>/);
    // A busy machine's slow-tool warning may join the screen: not what this checks.
    expect(withoutSlowToolLine(screen)).toMatch(/toolrun> echo message=hi\nEcho: hi\n✔ echo · mcp:everything · [\d.]+ ms\ntoolrun>$/m);
  });

  it('completes a tool name, then an argument key from its schema, then an enum value', async () => {
    term.keys('get-tiny', 'Tab');
    // Completed with a space after it: ready for the first argument.
    await term.waitFor('toolrun> get-tiny-image');
    term.keys('C-u', 'echo ', 'mes', 'Tab');
    await term.waitFor('toolrun> echo message=');
    term.keys('done', 'Enter');
    await term.waitFor('Echo: done');
  });

  it('completes and runs a local tool, as exec runs it (issue #32)', async () => {
    term.keys('math_ev', 'Tab');
    await term.waitFor('toolrun> math_eval');
    term.keys('expression=6*7', 'Enter');
    const screen = await term.waitFor('✔ math_eval · builtin');
    expect(screen).toMatch(/"result": 42/);
  });

  it("draws each elicitation field's question once, as exec does (issue #32)", async () => {
    term.keys('trigger-elicitation-request', 'Enter');
    await term.waitFor('String*:');
    term.keys('Bob', 'Enter');
    await term.waitFor('Boolean (y/n):');
    term.keys('y', 'Enter');
    const screen = await term.waitFor('String with default');
    term.keys(':cancel', 'Enter');
    await term.waitFor(/toolrun>\s*$/);
    // The question answered stays once, with its answer; the next field's description starts its own line.
    expect(screen.match(/String\*:/g)).toHaveLength(1);
    expect(screen.match(/Boolean \(y\/n\):/g)).toHaveLength(1);
    expect(screen).toMatch(/String\*: Bob\n {2}Agree to the terms and conditions\nBoolean \(y\/n\): y\n/);
  });

  it('writes history 0600 in a 0700 folder, secrets masked', async () => {
    term.keys('echo message=sk-ant-abcdefgh12345678 api_key=plainsecret99', 'Enter');
    // The result is the tool's own data, shown as it is; the history file is what must not keep it.
    await term.waitFor('Echo: sk-ant-abcdefgh12345678');
    const file = join(state, 'toolrun', 'history');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, 'toolrun')).mode & 0o777).toBe(0o700);
    const history = readFileSync(file, 'utf8');
    expect(history).toContain('echo message=hi\n');
    expect(history).toContain('echo message=*** api_key=***\n');
    expect(history).not.toMatch(/plainsecret99|abcdefgh12345678/);
  });

  it('Ctrl-C cancels a slow call, not the shell; the server hears the cancel', async () => {
    term.keys('slow_tool ms=30000', 'Enter');
    // Ctrl-C once the server has the call (not after a fixed pause, which a busy machine outlasts).
    await waitFor(() => existsSync(slowStarted) && readFileSync(slowStarted, 'utf8').includes('30000\n'));
    term.keys('C-c');
    // Cancelled, not waited out: the call would take 30 s, and the server hears the cancel.
    await term.waitFor('✖ slow_tool: interrupted');
    await term.waitFor('[slow] slow-tool-server: request cancelled by the client');
    term.keys('get-sum a=2 b=3', 'Enter');
    await term.waitFor('The sum of 2 and 3 is 5.');
    // At an empty prompt: a hint, the shell stays.
    term.keys('C-c');
    await term.waitFor('(Ctrl-D or exit leaves the shell)');
  });

  it('a server that dies mid-call is said once, and restart brings it back', async () => {
    term.keys('work', 'Enter');
    await term.waitFor(/✖ server 'crashy' went down \(.*out of widgets.*\); the shell goes on: type 'restart crashy' to start it again/);
    term.keys('restart crashy', 'Enter');
    await term.waitFor(/✔ crashy restarted: 1 tool \(pid \d+\)/);
    term.keys('.stderr crashy', 'Enter');
    await term.waitFor('toolrun> .stderr crashy\n');
  });

  it('a 1 MB line is refused in one line, not run, not in history; a paste with control characters is text', async () => {
    const big = join(tempDir(), 'big.txt');
    writeFileSync(big, `echo message=${'x'.repeat(1024 * 1024)}`);
    term.tmux('load-buffer', '-b', 'big', big);
    term.tmux('paste-buffer', '-p', '-b', 'big', '-t', 'shell');
    term.keys('Enter');
    await term.waitFor(/✖ line refused: 1,048,\d{3} bytes, the shell takes lines up to 64 KB/);
    expect(readFileSync(join(state, 'toolrun', 'history'), 'utf8')).not.toContain('x'.repeat(100));
    // Ctrl-L: readline clears the screen of the pasted line's echo.
    term.keys('C-l');
    // Ctrl-A (start of line) and an escape sequence inside a paste are neither run as keys nor sent.
    const paste = join(tempDir(), 'paste.txt');
    writeFileSync(paste, 'echo message=a\x01b\x1b[2Jc');
    term.tmux('load-buffer', '-b', 'paste', paste);
    term.tmux('paste-buffer', '-p', '-b', 'paste', '-t', 'shell');
    term.keys('Enter');
    await term.waitFor(/Echo: abc\n/);
  });

  it('works in a 20-column terminal', async () => {
    term.tmux('resize-window', '-t', 'shell', '-x', '20');
    term.keys('echo message=narrow', 'Enter');
    const screen = await term.waitFor('Echo: narrow');
    expect(screen).toContain('toolrun>');
    term.tmux('resize-window', '-t', 'shell', '-x', '120');
  });

  it('Ctrl-D leaves; the holder it started and every server end with it', async () => {
    term.keys('C-d');
    await term.waitFor('[exited 0]');
    expect(await waitForNoProcesses(marker.alive, 10_000)).toEqual([]);
    expect(readdirSync(join(runtime, 'toolrun')).filter((file) => file.endsWith('.sock'))).toEqual([]);
  });
});

describe('toolrun shell with piped input', () => {
  it('runs each line, results on stdout with no prompt, errors on stderr; leaves nothing running', async () => {
    const marker = newProcessMarker();
    const runtime = tempDir();
    const state = tempDir();
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    const result = await runToolrun(['--config', config, 'shell', 'everything'], {
      env: { XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: state, ...marker.env },
      input: ['echo message=one', '', 'get-sum a=1 b=2', 'nope x=1', '.json on', 'echo message=two', `echo message=${'y'.repeat(70_000)}`, 'exit', 'echo message=never'].join('\n'),
      stdin: undefined,
    });
    expect(result.stdout.split('\n')).toEqual(['Echo: one', 'The sum of 1 and 2 is 3.', expect.stringMatching(/^\{"success":true,"result":"Echo: two","tool_name":"echo",/)]);
    expect(result.stderr).toMatch(/✖ Tool 'nope' not found/);
    expect(result.stderr).toMatch(/✖ line refused: 70,013 bytes/);
    expect(result.stderr).not.toContain('toolrun>');
    expect(result.exitCode).toBe(2);
    expect(existsSync(join(state, 'toolrun', 'history'))).toBe(false);
    expect(await waitForNoProcesses(marker.alive, 10_000)).toEqual([]);
  });

  it('uses a holder that was already running and leaves it running, with the servers it already held', async () => {
    const marker = newProcessMarker();
    const env = { XDG_RUNTIME_DIR: tempDir(), XDG_STATE_HOME: tempDir(), ...marker.env };
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    expect((await runInProcess(['--config', config, 'session', 'start'], { env })).exitCode).toBe(0);
    try {
      const before = JSON.parse((await runInProcess(['--config', config, '--json', 'session', 'list'], { env })).stdout);
      const shell = await runToolrun(['--config', config, 'shell', 'everything'], { env, input: 'echo message=joined\n', stdin: undefined });
      expect(shell).toMatchObject({ exitCode: 0, stdout: 'Echo: joined' });
      const after = JSON.parse((await runInProcess(['--config', config, '--json', 'session', 'list'], { env })).stdout);
      // The same holder, its server still connected and now with the shell's call counted.
      expect(after.holders).toHaveLength(1);
      expect(after.holders[0]).toMatchObject({ pid: before.holders[0].pid, servers: [{ name: 'everything', status: 'connected', pid: before.holders[0].servers[0].pid, calls: 1 }] });
    } finally {
      await runInProcess(['--config', config, 'session', 'stop'], { env });
    }
    expect(await waitForNoProcesses(marker.alive, 10_000)).toEqual([]);
  });
});

// Issue #32, dead end 3: the shell runs every tool of the registry, and its commands act on its servers.
describe('toolrun shell: every tool, on the servers it holds', () => {
  it('runs a local tool as exec does, and time/resources/read/get start no other configured server', async () => {
    const marker = newProcessMarker();
    const env = { XDG_RUNTIME_DIR: tempDir(), XDG_STATE_HOME: tempDir(), ...marker.env };
    const started = join(tempDir(), 'other-started');
    const config = writeTempConfig({
      mcpServers: {
        everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
        // Not held by the shell: starting it leaves a file behind.
        other: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(started)}, 'started')`] },
      },
    });
    const result = await runToolrun(['--config', config, 'shell', 'everything'], {
      env,
      input: ['math_eval expression=6*7', 'time get-sum a=1 b=2 -n 3 --warmup 0', 'resources', 'read demo://resource/static/document/architecture.md', 'get simple-prompt', '.json on', 'tools'].join(
        '\n',
      ),
      stdin: undefined,
    });
    const lines = result.stdout.trim().split('\n');
    // What `toolrun exec math_eval expression=6*7` prints.
    expect(result.stdout).toMatch(/^\{\n {2}"result": 42\n\}\n/);
    expect(result.stderr).not.toMatch(/is a local tool/);
    expect(result.stdout).toMatch(/get-sum/);
    expect(result.exitCode).toBe(0);
    expect(existsSync(started)).toBe(false);
    // `tools` lists the local tools beside the held servers' ones.
    const listing = JSON.parse(lines.at(-1)!) as { tools: Array<{ name: string; server: string }> };
    expect(listing.tools).toContainEqual(expect.objectContaining({ name: 'math_eval', server: 'local' }));
    expect(listing.tools).toContainEqual(expect.objectContaining({ name: 'get-sum', server: 'everything' }));
    expect(await waitForNoProcesses(marker.alive, 10_000)).toEqual([]);
  }, 30_000);
});
