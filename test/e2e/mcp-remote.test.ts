import { execa, type ResultPromise } from 'execa';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV2HttpServer } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { SERVER_EVERYTHING, writeTempConfig } from '../helpers/temp-config.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts server-everything in an HTTP mode on a free loopback port; resolves once it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ port: number; process: ResultPromise }> {
  const port = await freePort();
  const child = execa(process.execPath, [SERVER_EVERYTHING, mode], { env: { PORT: String(port) }, reject: false, buffer: false, stdin: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (/listening|running/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { port, process: child };
}

describe('remote servers (server-everything over HTTP)', () => {
  let http: { port: number; process: ResultPromise };
  let sse: { port: number; process: ResultPromise };
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  });
  afterAll(async () => {
    for (const server of [http, sse]) {
      server?.process.kill('SIGKILL');
      await server?.process;
    }
  });

  it('calls tools over Streamable HTTP', async () => {
    const config = writeTempConfig({ mcpServers: { remote: { url: `http://127.0.0.1:${http.port}/mcp` } } });
    const result = await runInProcess(['--json', '--config', config, 'exec', 'get-sum', 'a=2', 'b=3']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, server: 'remote', result: 'The sum of 2 and 3 is 5.' });
  });

  it('sends headers expanded from the environment (a server that requires them says 401 otherwise)', async () => {
    const guarded = await startV2HttpServer({ REQUIRE_TOKEN: 's3cret-token' });
    try {
      const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { guarded: { url: guarded.url, headers: { Authorization: 'Bearer ${TOOLRUN_TEST_TOKEN}' } } } });
      const ok = await runInProcess(['--json', '--config', config, 'exec', 'guarded:add', 'a=2', 'b=3'], { env: { TOOLRUN_TEST_TOKEN: 's3cret-token' } });
      expect(ok.exitCode).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ success: true, server: 'guarded', result: { sum: 5 } });
      const wrong = await runInProcess(['--config', config, 'exec', 'guarded:add', 'a=2', 'b=3'], { env: { TOOLRUN_TEST_TOKEN: 'wrong' } });
      expect(wrong.exitCode).toBe(4);
      expect(wrong.stderr).toContain('  Reason: the server refused the request (HTTP 401 Unauthorized)');
      expect(wrong.stderr).not.toContain('wrong');
    } finally {
      await guarded.stop();
    }
  });

  // Issue #19 item 8: a 401 was two problems (spawn and initialize), "(attempt 1 of 3)" with no retry to follow.
  it('doctor counts a 401 as one problem, saying it is not retried', async () => {
    const guarded = await startV2HttpServer({ REQUIRE_TOKEN: 's3cret-token' });
    try {
      const config = writeTempConfig({ mcpServers: { guarded: { url: guarded.url, headers: { Authorization: 'Bearer wrong-token' } } } });
      const reason = 'the server refused the request (HTTP 401 Unauthorized)';
      const fix = 'check the token/header in "headers" (and the ${VAR} it uses)';
      const json = await runInProcess(['--json', '--config', config, 'mcp', 'doctor', 'guarded']);
      const report = JSON.parse(json.stdout);
      expect(report).toMatchObject({ exitCode: 4, problems: 1, warnings: 0 });
      const steps = Object.fromEntries(report.steps.map((step: { id: string }) => [step.id, step]));
      expect(steps.spawn).toMatchObject({ status: 'skip', finding: 'remote server: nothing to start' });
      expect(steps.initialize).toMatchObject({ status: 'fail', finding: `${reason} (not retried: it would fail the same way)`, fix, data: { attempts: 1, retryable: false } });
      const human = await runInProcess(['--config', config, 'mcp', 'doctor', 'guarded']);
      expect(human.stdout).toContain(`✖ initialize  ${reason} (not retried: it would fail the same way)`);
      expect(human.stdout).not.toMatch(/attempt \d of/);
      expect(human.stdout.split('\n').at(-1)).toMatch(/^Unreachable: 1 problem, 0 warnings \(\d+ ms\)$/);
    } finally {
      await guarded.stop();
    }
  });

  it('doctor reports a URL where nothing listens as one problem, at the connection', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { gone: { type: 'http', url: `http://127.0.0.1:${await freePort()}/mcp` } } });
    const report = JSON.parse((await runInProcess(['--json', '--config', config, 'mcp', 'doctor', 'gone'])).stdout);
    expect(report).toMatchObject({ exitCode: 4, problems: 1 });
    const steps = Object.fromEntries(report.steps.map((step: { id: string }) => [step.id, step]));
    expect(steps.spawn).toMatchObject({ status: 'fail', finding: expect.stringMatching(/^connection refused at http:\/\/127\.0\.0\.1:\d+\/mcp: is the server running\? \(attempt 1 of 1\)$/) });
    expect(steps.initialize).toMatchObject({ status: 'skip', finding: 'not reached: no connection' });
  });

  it('reports the transport that worked in mcp list --check', async () => {
    const config = writeTempConfig({ mcpServers: { remote: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` }, old: { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` } } });
    const result = await runInProcess(['--json', '--config', config, 'mcp', 'list', '--check']);
    expect(result.exitCode).toBe(0);
    const servers = JSON.parse(result.stdout).servers;
    expect(servers).toEqual([expect.objectContaining({ name: 'remote', transport: 'http', status: 'ok' }), expect.objectContaining({ name: 'old', transport: 'sse', status: 'ok' })]);
  });

  it('exits 4 when nothing listens at the URL', async () => {
    const port = await freePort();
    const config = writeTempConfig({ retry: { attempts: 2, baseDelayMs: 10 }, mcpServers: { gone: { url: `http://127.0.0.1:${port}/mcp` } } });
    const result = await runInProcess(['--config', config, 'exec', 'gone:echo']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`  Reason: connection refused at http://127.0.0.1:${port}/mcp: is the server running?`);
  });
});
