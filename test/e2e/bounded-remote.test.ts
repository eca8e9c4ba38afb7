import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer, type ReceivedRequest } from '../helpers/loopback-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { writeTempConfig } from '../helpers/temp-config.js';

// Issue #31 item 8: an HTTP answer is read with a byte cap per message, as a stdio line is (10 MB;
// TOOLRUN_MAX_MESSAGE_BYTES lowers it here): a JSON body or one SSE event over it ends the read at
// the cap, with one line naming it, never a body read whole into memory. A long SSE stream of
// small events is not capped.
const LIMIT = 4096;
const env = { TOOLRUN_MAX_MESSAGE_BYTES: String(LIMIT) };

describe('an HTTP answer over the message limit', () => {
  let server: LoopbackServer;
  const tool = (description: string) => ({ name: 'big', description, inputSchema: { type: 'object', properties: {} } });
  const discover = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' }, ttlMs: 0, cacheScope: 'private', resultType: 'complete' };

  /** The answer to one request, by the path's mode: which answer is big, and whether it comes as SSE. */
  function answer(request: ReceivedRequest) {
    const [, mode] = request.path.split('/') as [string, string];
    const rpc = request.rpc;
    if (!rpc) return { status: 405 };
    if (rpc.id === undefined) return { status: 202 };
    const reply = (result: unknown, sse = false, before: string[] = []) => {
      const message = JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result });
      if (!sse) return { status: 200, headers: { 'content-type': 'application/json' }, body: message };
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: [...before, message].map((data) => `event: message\ndata: ${data}\n\n`).join('') };
    };
    const legacy = mode.startsWith('legacy');
    if (rpc.method === 'server/discover') {
      if (legacy) return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'Method not found' } }) };
      return reply(mode === 'discover' ? { ...discover, padding: 'p'.repeat(2 * LIMIT) } : discover);
    }
    if (rpc.method === 'initialize') return reply({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } });
    if (rpc.method === 'tools/list') {
      const sse = mode.endsWith('sse') || mode === 'many-small';
      // many-small: twenty log messages of 1 kB each before a small answer: the stream is over the limit, no event is.
      const before = mode === 'many-small' ? [...Array(20)].map(() => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'l'.repeat(1000) } })) : [];
      const description = mode === 'many-small' || mode === 'discover' ? 'a small tool' : 'd'.repeat(2 * LIMIT);
      return reply({ tools: [tool(description)], ...(legacy ? {} : { ttlMs: 0, cacheScope: 'private', resultType: 'complete' }) }, sse, before);
    }
    return reply({ content: [{ type: 'text', text: 'called' }], ...(legacy ? {} : { resultType: 'complete' }) });
  }

  beforeAll(async () => {
    server = await startLoopbackServer(answer);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const config = (mode: string) => writeTempConfig({ retry: { attempts: 1, baseDelayMs: 10 }, mcpServers: { api: { url: `${server.origin}/${mode}/mcp` } } });

  it.each(['modern-json', 'modern-sse', 'legacy-json', 'legacy-sse', 'discover'])('exec (%s): stops at the cap, one line naming it', async (mode) => {
    const result = await runInProcess(['--config', config(mode), 'exec', 'api:big'], { env });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(`the server sent a message of more than ${LIMIT} bytes`);
    expect(result.stderr).not.toMatch(/legacy|\n\s+at /);
  });

  it.each(['modern-json', 'modern-sse', 'discover'])('mcp conform (%s): the same', async (mode) => {
    const result = await runInProcess(['--config', config(mode), 'mcp', 'conform', 'api'], { env });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(`the server sent a message of more than ${LIMIT} bytes`);
  });

  it('a stream of small events is not capped as a whole', async () => {
    const result = await runInProcess(['--config', config('many-small'), 'exec', 'api:big'], { env });
    expect(result.stderr).not.toContain('more than');
    expect(result).toMatchObject({ exitCode: 0, stdout: 'called' });
  });
});
