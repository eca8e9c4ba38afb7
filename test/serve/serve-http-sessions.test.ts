import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveOverHttp } from '../../src/serve/serve-http.js';

// Issue 48 item 6: sessions that never finish the handshake, and a flood of idle ones, lock nobody out.
const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

async function start(options: { maxSessions?: number; handshakeMs?: number; idleMs?: number }) {
  const said: string[] = [];
  const served = await serveOverHttp(() => new Server({ name: 't', version: '1' }, { capabilities: {} }), { host: '127.0.0.1', port: 0, log: (message) => said.push(message), ...options });
  running.push(served);
  const post = async (body: string, session?: string) => {
    const response = await fetch(served.url, { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) }, body });
    await response.text();
    return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined };
  };
  const open = async (handshake = true) => {
    const { session } = await post(initialize);
    if (handshake) await post(initialized, session);
    return session!;
  };
  return { said, post, open };
}

describe('toolrun serve --http sessions', () => {
  it('a session whose client never sends notifications/initialized is ended, and said so; one that does stays', async () => {
    const { said, post, open } = await start({ handshakeMs: 150 });
    const half = await open(false);
    const whole = await open(true);
    for (let waited = 0; said.length === 0 && waited < 10_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(said).toEqual([`toolrun serve: ended session ${half}: its client did not finish the handshake within 0.15 s`]);
    expect((await post(ping, half)).status).toBe(404);
    expect((await post(ping, whole)).status).toBe(200);
  });

  it('full of idle sessions: the least recently used one makes room for a new client, instead of a 503 for everyone', async () => {
    const { said, post, open } = await start({ maxSessions: 3 });
    const [first, second, third] = [await open(), await open(), await open()];
    // The first is used again: the second is now the least recently used.
    expect((await post(ping, first)).status).toBe(200);
    const fourth = await open();
    expect(fourth).toBeDefined();
    expect(said).toEqual([`toolrun serve: ended session ${second}, idle the longest, to make room for a new client (3 at most)`]);
    expect((await post(ping, second)).status).toBe(404);
    for (const session of [first, third, fourth]) expect((await post(ping, session)).status).toBe(200);
  });

  it('a session without a request for the idle time is ended, and said so', async () => {
    const { said, post, open } = await start({ idleMs: 200 });
    const session = await open();
    for (let waited = 0; said.length === 0 && waited < 10_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(said).toEqual([`toolrun serve: ended session ${session}: no request for 0.2 s`]);
    expect((await post(ping, session)).status).toBe(404);
  });
});
