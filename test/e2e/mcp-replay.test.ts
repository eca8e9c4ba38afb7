import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §11: a recorded session replayed against the server, as a regression test.
describe('toolrun mcp replay', () => {
  const home = join(FIXTURES, 'home.json');

  it('passes on an unchanged server (exit 0)', async () => {
    const file = join(tempDir(), 'zwave.rec');
    await runCleanInProcess(['--config', home, 'mcp', 'check-stdout', 'zwave', '--call', 'list_zwave_devices', '--save', file]);
    const result = await runCleanInProcess(['--config', home, 'mcp', 'replay', file, 'zwave']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(['✔ server/discover #toolrun-discover-1', '✔ initialize #0', '✔ tools/list #1', '✔ ping #2', '✔ tools/call #3', 'same: 5 responses as recorded'].join('\n'));
  });

  it('fails with the path of what changed (exit 1), and --ignore lets a varying field pass', async () => {
    const config = writeTempConfig({ mcpServers: { p: fixtureServer('pid-file-server.js') } });
    const file = join(tempDir(), 'p.rec');
    await runCleanInProcess(['--config', config, 'mcp', 'check-stdout', 'p', '--call', 'whoami', '--save', file]);
    const changed = await runCleanInProcess(['--json', '--config', config, 'mcp', 'replay', file, 'p']);
    expect(changed.exitCode).toBe(1);
    const report = JSON.parse(changed.stdout);
    expect(report.same).toBe(false);
    expect(report.requests.filter((request: { same: boolean }) => !request.same)).toEqual([
      { method: 'tools/call', id: 3, same: false, differences: [{ path: 'result.content[0].text', recorded: expect.stringMatching(/^\d+$/), now: expect.stringMatching(/^\d+$/) }] },
    ]);
    const text = await runCleanInProcess(['--config', config, 'mcp', 'replay', file, 'p']);
    expect(text.stdout).toMatch(/^✖ tools\/call #3: 1 difference\n {4}result\.content\[0\]\.text: recorded "\d+", now "\d+"$/m);
    expect(text.stdout.split('\n').at(-1)).toBe('1 of 5 responses differ');
    const ignored = await runCleanInProcess(['--config', config, 'mcp', 'replay', file, 'p', '--ignore', 'result.content.*.text']);
    expect(ignored.exitCode).toBe(0);
  });

  it('a server that cannot start is exit 4; a file that is not a recording is exit 2', async () => {
    const file = join(tempDir(), 'zwave.rec');
    await runCleanInProcess(['--config', home, 'mcp', 'check-stdout', 'zwave', '--save', file]);
    const unreachable = await runInProcess(['mcp', 'replay', file, '--', 'no-such-command-toolrun-replay']);
    expect(unreachable.exitCode).toBe(4);
    expect(unreachable).toMatchObject({ stdout: '', stderr: "✖ the replay did not complete: command not found: 'no-such-command-toolrun-replay' (not on PATH, or the file does not exist)" });
    const notRecording = await runInProcess(['mcp', 'replay', home, '--', 'node', 'x.js']);
    expect(notRecording.exitCode).toBe(2);
    expect(notRecording.stderr).toContain('not a toolrun recording');
  });
});
