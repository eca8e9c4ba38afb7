import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue 47 item 8: a Streamable HTTP server whose process dies while a call is in flight was waited
// out to the 30 s timeout; a next step then failed with "Service unavailable: fetch failed", exit 1.
// Now the dropped connection fails the call at once with the reason, as a stdio server's exit does,
// and a server found unreachable afterwards ends the run with exit 4.
// fixtures/servers/exit-mid-call-http-server.js: `work` makes its process exit mid-call.

const started: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});
const startServer = async (env: Record<string, string> = {}) => {
  const server = await startHttpFixture('exit-mid-call-http-server.js', env);
  started.push(server);
  return server;
};
const DROPPED = "MCP server 'h' went away during the call to 'work': the server closed the connection before answering (other side closed";

describe('an HTTP server that dies mid-call', () => {
  it('exec fails the call at once with the reason: an event stream, a JSON body, a resumable stream', async () => {
    const variants = [{}, { JSON: '1' }, { RESUMABLE: '1' }];
    const servers = await Promise.all(variants.map((env) => startServer(env)));
    // Below the test's own timeout: before the fix, each call waited this out.
    const results = await Promise.all(servers.map((server) => runCleanInProcess(['--config', writeTempConfig({ mcpServers: { h: { url: server.url } } }), '--timeout', '15000', 'exec', 'h:work'])));
    for (const [index, result] of results.entries()) {
      expect(result.stdout, JSON.stringify(variants[index])).toBe('');
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stderr.split('\n')).toEqual([expect.stringContaining(`✖ work: ${DROPPED}`)]);
    }
    // A stream with event ids could be resumed: it is failed once nothing listens at the address.
    expect(results[2]!.stderr).toMatch(/\) and no longer accepts connections; its own log says why$/);
    expect(results[0]!.stderr).toMatch(/\); its own log says why$/);
  });

  it('a resumable stream whose server stops listening right after the drop: the resumption finds nothing and fails the call at once', async () => {
    // The server is still there when the drop is probed (so the SDK is left to resume) and gone when
    // the resumption comes: before, the SDK retried it, gave up, and the call waited out its timeout.
    const server = await startServer({ RESUMABLE: '1', CLOSE_AFTER_PROBE: '1' });
    const result = await runCleanInProcess(['--config', writeTempConfig({ mcpServers: { h: { url: server.url } } }), '--timeout', '60000', 'exec', 'h:work']);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr.split('\n')).toEqual([expect.stringContaining(`✖ work: ${DROPPED}`)]);
    expect(result.stderr).toMatch(/\) and no longer accepts connections; its own log says why$/);
  });

  it('toolrun test: the step it died in fails with the reason, the next finds it unreachable: exit 4', async () => {
    const server = await startServer();
    const dir = tempDir();
    const config = writeTempConfig({ retry: { attempts: 1 }, mcpServers: { h: { url: server.url } } });
    writeFileSync(
      join(dir, 'dies.toolrun.yaml'),
      'server: h\ntests:\n  - name: works\n    call: work\n    expect: { text: ok }\n  - name: echoes\n    call: echo\n    args: { message: hi }\n    expect: { text: "Echo: hi" }\n',
    );
    const result = await runCleanInProcess(['--config', config, '--timeout', '15000', 'test', 'dies.toolrun.yaml'], { cwd: dir });
    expect(result.exitCode, result.stdout).toBe(4);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^✖ works · \d+ ms$/);
    expect(lines[2]).toContain(`    error: the step failed: ${DROPPED}`);
    expect(lines[4]).toMatch(/^✖ echoes · \d+ ms$/);
    expect(lines[6]).toBe(`    error: the step failed: MCP server 'h' could not be connected: connection refused at ${server.url}: is the server running?`);
    expect(lines.at(-1)).toMatch(/^0 passed, 2 failed \(2 tests, [\d.]+ s\)$/);
  });

  it('a session holder whose HTTP server is gone: exec says it is unreachable, exit 4, not "Service unavailable: fetch failed"', async () => {
    const server = await startServer();
    const marker = newProcessMarker();
    const env = { XDG_RUNTIME_DIR: tempDir(), ...marker.env };
    const config = writeTempConfig({ retry: { attempts: 1 }, mcpServers: { h: { url: server.url } } });
    try {
      expect((await runInProcess(['--config', config, 'session', 'start'], { env })).exitCode).toBe(0);
      expect(await runToolrun(['--config', config, 'exec', 'h:echo', 'message=a'], { env })).toMatchObject({ exitCode: 0, stdout: 'Echo: a' });
      await server.stop();
      const gone = await runToolrun(['--config', config, 'exec', 'h:echo', 'message=b'], { env });
      expect(gone.exitCode).toBe(4);
      expect(gone.stderr).toMatch(
        /^✖ echo: MCP server 'h' is unreachable: nothing answers at the server's address any more \(connect ECONNREFUSED 127\.0\.0\.1:\d+\); start it again, or check "url"$/,
      );
    } finally {
      await runInProcess(['session', 'stop', '--all'], { env });
    }
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });
});
