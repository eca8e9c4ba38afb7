import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSessionHttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

interface Recorded {
  event: 'arrived' | 'answered';
  http: string;
  rpc?: string;
  session?: string;
  status?: number;
}

/** A session-http-server.js with its request record, emptied before each run. */
async function recordingServer(env: Record<string, string> = {}) {
  const file = join(tempDir(), 'requests.jsonl');
  writeFileSync(file, '');
  const server = await startSessionHttpServer({ RECORD: file, ...env });
  const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { remote: { url: server.url } } });
  const requests = (): Recorded[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Recorded);
  return { server, config, requests, reset: () => writeFileSync(file, '') };
}

/** The session the server gave (the id every request after initialize carries) and the DELETEs sent. */
function sessionStory(requests: Recorded[]) {
  const sessions = [...new Set(requests.flatMap((request) => (request.session && request.http !== 'DELETE' ? [request.session] : [])))];
  const deletes = requests.filter((request) => request.http === 'DELETE' && request.event === 'answered').map(({ session, status }) => ({ session, status }));
  return { sessions, deletes };
}

const stepOf = (stdout: string) => JSON.parse(stdout).steps.find((step: { id: string }) => step.id === 'shutdown');

// Issue #19 item 7: Streamable HTTP sessions are ended with a DELETE carrying the Mcp-Session-Id.
describe('remote sessions are ended (Streamable HTTP, session management)', () => {
  let sessionful: Awaited<ReturnType<typeof recordingServer>>;
  const others: HttpFixture[] = [];
  beforeAll(async () => {
    sessionful = await recordingServer();
  });
  afterAll(async () => {
    await Promise.all([sessionful?.server.stop(), ...others.map((server) => server.stop())]);
  });

  it.each([
    ['exec (success)', ['exec', 'remote:echo', 'message=hi'], 0],
    ['exec (the call times out)', ['exec', '--timeout', '200', 'remote:slow_tool', 'ms:=3000'], 1],
    ['exec (the server refuses the call)', ['exec', '--no-validate', 'remote:echo'], 1],
    ['list', ['list', '--server', 'remote'], 0],
    ['time', ['time', 'remote:echo', 'message=hi', '-n', '3', '--warmup', '0'], 0],
    ['mcp list --check', ['mcp', 'list', '--check'], 0],
    ['mcp doctor', ['mcp', 'doctor', 'remote'], 0],
  ])('%s sends one DELETE with the session id', async (_name, args, exitCode) => {
    sessionful.reset();
    const result = await runInProcess(['--config', sessionful.config, ...(args as string[])]);
    expect(result.exitCode).toBe(exitCode);
    // The fixture logs the DELETE when its answer is finished, which can be just after toolrun returned.
    for (let waited = 0; sessionStory(sessionful.requests()).deletes.length === 0 && waited < 5000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    const { sessions, deletes } = sessionStory(sessionful.requests());
    expect(sessions).toHaveLength(1);
    expect(deletes).toEqual([{ session: sessions[0], status: 200 }]);
  });

  it('doctor says the session was ended, with the DELETE status', async () => {
    const result = await runInProcess(['--json', '--config', sessionful.config, 'mcp', 'doctor', 'remote']);
    expect(stepOf(result.stdout)).toMatchObject({
      status: 'ok',
      finding: expect.stringMatching(/^session ended: DELETE answered 200 \(\d+ ms\)$/),
      data: { outcome: 'session-ended', http_status: 200 },
    });
    const human = await runInProcess(['--config', sessionful.config, 'mcp', 'doctor', 'remote']);
    expect(human.stdout).toMatch(/^✔ shutdown +session ended: DELETE answered 200 \(\d+ ms\)$/m);
    expect(human.stdout).not.toContain('the session was closed');
  });

  it('Ctrl-C during a call still ends the session', async () => {
    sessionful.reset();
    const run = runToolrun(['--config', sessionful.config, 'exec', 'remote:slow_tool', 'ms:=20000']);
    for (let waited = 0; !sessionful.requests().some((request) => request.rpc === 'tools/call') && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    // The call reached the server; Ctrl-C now.
    run.kill('SIGINT');
    const result = await run;
    expect(result.exitCode).toBe(130);
    const { sessions, deletes } = sessionStory(sessionful.requests());
    // The session the call ran in is ended; so is any other toolrun opened (a connect attempt retried
    // on a loaded machine opens one of its own): none is left behind.
    const calledIn = sessionful.requests().find((request) => request.rpc === 'tools/call')!.session;
    expect(deletes).toContainEqual({ session: calledIn, status: 200 });
    expect(deletes).toEqual(sessions.map((session) => ({ session, status: 200 })));
  });

  it('a server that does not let clients end sessions (405) is told apart from one that ended it', async () => {
    const refusing = await recordingServer({ DELETE_STATUS: '405' });
    others.push(refusing.server);
    const result = await runInProcess(['--json', '--config', refusing.config, 'mcp', 'doctor', 'remote']);
    expect(result.exitCode).toBe(0);
    expect(stepOf(result.stdout)).toMatchObject({
      status: 'ok',
      finding: expect.stringMatching(/^the server does not let clients end sessions \(DELETE answered 405, which the spec allows\); it expires the session itself \(\d+ ms\)$/),
    });
    // The server records a request as answered after its answer is sent: the client can be faster.
    for (let waited = 0; sessionStory(refusing.requests()).deletes.length === 0 && waited < 5000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(sessionStory(refusing.requests()).deletes).toEqual([{ session: expect.any(String), status: 405 }]);
  });

  it('a DELETE that fails or is never answered is a warning saying so, and does not hold the command', async () => {
    const failing = await recordingServer({ DELETE_STATUS: '500' });
    const hanging = await recordingServer({ DELETE_HANG: '1' });
    others.push(failing.server, hanging.server);
    const failed = await runInProcess(['--json', '--config', failing.config, 'mcp', 'doctor', 'remote']);
    expect(stepOf(failed.stdout)).toMatchObject({
      status: 'warn',
      finding: expect.stringMatching(/^ending the session failed: DELETE with its Mcp-Session-Id got HTTP 500 Internal Server Error \(\d+ ms\); the session may stay open on the server$/),
      fix: 'answer DELETE with 2xx once the session is ended, or 405 if clients may not end sessions (Streamable HTTP, session management)',
    });
    const hung = await runInProcess(['--json', '--config', hanging.config, 'mcp', 'doctor', 'remote']);
    expect(stepOf(hung.stdout)).toMatchObject({ status: 'warn', finding: expect.stringContaining('got no answer within 1000 ms') });
    // Unbounded, the DELETE would hold the command for good (the test's timeout catches it); bounded, it waits 1 s more.
    const exec = await runInProcess(['--config', hanging.config, 'exec', 'remote:echo', 'message=hi']);
    expect(exec).toMatchObject({ exitCode: 0, stdout: 'Echo: hi' });
  }, 60_000);

  it('the 2026-07-28 era has no session to end: no DELETE, and doctor says so', async () => {
    const dual = await recordingServer({ MODERN: '1' });
    others.push(dual.server);
    const result = await runInProcess(['--json', '--config', dual.config, 'mcp', 'doctor', 'remote']);
    expect(JSON.parse(result.stdout).steps.find((step: { id: string }) => step.id === 'initialize').data.protocol_era).toBe('modern');
    expect(stepOf(result.stdout)).toMatchObject({ status: 'skip', finding: 'the server gave no session id (stateless): nothing to close' });
    expect(sessionStory(dual.requests())).toEqual({ sessions: [], deletes: [] });
    // The same server in the 2025 era (forced) opens a session, and it is ended.
    dual.reset();
    // Spawned: in-process, this run once returned before the server had recorded the DELETE's answer (it records on its response's finish); a process's exit leaves it that moment.
    const legacy = await runToolrun(['--config', dual.config, '--protocol', '2025-11-25', 'exec', 'remote:echo', 'message=hi']);
    expect(legacy.exitCode).toBe(0);
    const { sessions, deletes } = sessionStory(dual.requests());
    expect(deletes).toEqual([{ session: sessions[0], status: 200 }]);
  }, 60_000);
});
