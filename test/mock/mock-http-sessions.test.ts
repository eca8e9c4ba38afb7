import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaults, seededRandom } from '../../src/mock/faults.js';
import { createResponder } from '../../src/mock/mock-answers.js';
import { serveMockOverHttp } from '../../src/mock/mock-http.js';
import { readMockSource } from '../../src/mock/read-mock-source.js';
import { tempDir } from '../helpers/temp-config.js';

// Issue 48 item 6: `mcp mock --http` keeps serve's rules for sessions: a handshake never finished ends,
// idle sessions expire, and a flood of idle ones cannot lock a new client out.
const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
const source = join(tempDir(), 'tools.json');
writeFileSync(source, JSON.stringify({ tools: [{ name: 'noop', inputSchema: { type: 'object' } }] }));

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

async function start(options: { maxSessions?: number; handshakeMs?: number; idleMs?: number; token?: string; faults?: string[] }) {
  const said: string[] = [];
  const book = readMockSource(source, 'tools.json');
  const served = await serveMockOverHttp(() => createResponder(book, 'args'), parseFaults(options.faults ?? []), seededRandom(1), {
    host: '127.0.0.1',
    port: 0,
    log: (message) => said.push(message),
    ...options,
  });
  running.push(served);
  const post = async (body: string, session?: string, extra: Record<string, string> = {}) => {
    const response = await fetch(served.url, { method: 'POST', headers: { ...headers, ...extra, ...(session ? { 'mcp-session-id': session } : {}) }, body });
    await response.text();
    return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined };
  };
  const open = async (handshake = true) => {
    const { session } = await post(initialize);
    if (handshake) await post(initialized, session);
    return session!;
  };
  const waitFor = async (count: number) => {
    for (let waited = 0; said.length < count && waited < 10_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  return { said, post, open, waitFor };
}

describe('toolrun mcp mock --http sessions', () => {
  it('a session whose client never sends notifications/initialized is ended, and said so; one that does stays', async () => {
    const { said, post, open, waitFor } = await start({ handshakeMs: 150 });
    const half = await open(false);
    const whole = await open(true);
    await waitFor(1);
    expect(said).toEqual([`toolrun mock: ended session ${half}: its client did not finish the handshake within 0.15 s`]);
    expect((await post(ping, half)).status).toBe(404);
    expect((await post(ping, whole)).status).toBe(200);
  });

  it("the handshake clock starts once the mock's own slow answer to initialize is sent (--fault slow-init)", async () => {
    const { said, post, open } = await start({ handshakeMs: 150, faults: ['slow-init=400'] });
    // Had the clock started with the session, it would have ended 250 ms before its client learnt its id.
    const session = await open(true);
    expect((await post(ping, session)).status).toBe(200);
    expect(said).toEqual([]);
  });

  it('full of idle sessions: the least recently used one makes room for a new client', async () => {
    const { said, post, open } = await start({ maxSessions: 3 });
    const [first, second, third] = [await open(), await open(), await open()];
    expect((await post(ping, first)).status).toBe(200);
    const fourth = await open();
    expect(said).toEqual([`toolrun mock: ended session ${second}, idle the longest, to make room for a new client (3 at most)`]);
    expect((await post(ping, second)).status).toBe(404);
    for (const session of [first, third, fourth]) expect((await post(ping, session)).status).toBe(200);
  });

  it('a session without a request for the idle time is ended, and said so', async () => {
    const { said, post, open, waitFor } = await start({ idleMs: 200 });
    const session = await open();
    await waitFor(1);
    expect(said).toEqual([`toolrun mock: ended session ${session}: no request for 0.2 s`]);
    expect((await post(ping, session)).status).toBe(404);
  });

  it('with a token, a request without its bearer is 401 with a challenge; with it, served', async () => {
    const { post } = await start({ token: 's3cret' });
    expect((await post(initialize)).status).toBe(401);
    expect((await post(initialize, undefined, { Authorization: 'Bearer wrong!' })).status).toBe(401);
    expect((await post(initialize, undefined, { Authorization: 'Bearer s3cret' })).status).toBe(200);
  });
});
