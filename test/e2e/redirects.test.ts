import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { writeTempConfig } from '../helpers/temp-config.js';

// Issue #31 item 6: a server entry's headers (an API key) go to the entry's origin only. A redirect
// to another origin is refused with a message that says so; the other origin never sees the key.
describe('a redirect to another origin', () => {
  let other: LoopbackServer;
  let entry: LoopbackServer;
  const KEY = 'key-for-the-entry-only-123';
  const json = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    other = await startLoopbackServer(() => ({ status: 500, body: 'not here' }));
    // /all/mcp redirects everything; /modern/mcp answers server/discover (2026-07-28) and redirects
    // the rest; /legacy/mcp refuses server/discover (a 2025 server) and redirects initialize.
    entry = await startLoopbackServer((request) => {
      const mode = request.path.split('/')[1];
      // The request's own id: the CLI's probe and conform's channel number theirs differently, and an
      // answer to another id would leave conform waiting for its timeout (10 s) before it went on.
      const id = request.rpc?.id;
      if (request.rpcMethod === 'server/discover' && mode === 'modern') {
        return json({
          jsonrpc: '2.0',
          id,
          result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'redirecting', version: '1' }, ttlMs: 0, cacheScope: 'private' },
        });
      }
      if (request.rpcMethod === 'server/discover' && mode === 'legacy') {
        return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }) };
      }
      return { status: 307, headers: { location: `${other.origin}/mcp` } };
    });
  });
  afterAll(async () => {
    await entry?.stop();
    await other?.stop();
  });

  const config = (mode: string) => writeTempConfig({ retry: { attempts: 1, baseDelayMs: 10 }, mcpServers: { api: { url: `${entry.origin}/${mode}/mcp`, headers: { 'X-API-Key': KEY } } } });

  it.each(['all', 'modern', 'legacy'])('exec (%s): the key never reaches the other origin, and the error says the redirect was refused', async (mode) => {
    const before = other.received.length;
    const result = await runInProcess(['--config', config(mode), 'exec', 'api:anything']);
    expect(result.exitCode).not.toBe(0);
    expect(other.received.slice(before)).toEqual([]);
    expect(result.stderr).toContain(`redirected to another origin (HTTP 307 to ${other.origin}/mcp)`);
    expect(result.stderr).not.toContain(KEY);
  });

  it.each(['all', 'modern', 'legacy'])('mcp conform (%s): the same', async (mode) => {
    const before = other.received.length;
    const result = await runInProcess(['--config', config(mode), 'mcp', 'conform', 'api']);
    expect(result.exitCode).not.toBe(0);
    expect(other.received.slice(before)).toEqual([]);
    expect(result.stderr + result.stdout).toContain(`redirected to another origin (HTTP 307 to ${other.origin}/mcp)`);
  });
});
