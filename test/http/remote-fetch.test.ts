import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrossOriginRedirectError, MAX_REDIRECTS, remoteFetch } from '../../src/http/remote-fetch.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

// Issue #31 item 6: redirects within the entry's origin are followed with its headers; none leaves it.
describe('remoteFetch', () => {
  let server: LoopbackServer;
  let other: LoopbackServer;
  beforeAll(async () => {
    other = await startLoopbackServer(() => ({ status: 200, body: 'other' }));
    server = await startLoopbackServer((request) => {
      if (request.path === '/moved') return { status: 308, headers: { location: '/mcp' } };
      if (request.path === '/see-other') return { status: 303, headers: { location: '/mcp' } };
      if (request.path === '/loop') return { status: 302, headers: { location: '/loop' } };
      if (request.path === '/away') return { status: 301, headers: { location: `${other.origin}/mcp` } };
      if (request.path === '/https') return { status: 301, headers: { location: server.origin.replace('http:', 'https:') + '/mcp' } };
      return { status: 200, body: `${request.method} ${request.headers['x-api-key']}` };
    });
  });
  afterAll(async () => {
    await server?.stop();
    await other?.stop();
  });
  const post = (path: string) => remoteFetch(`${server.origin}${path}`, { method: 'POST', headers: { 'X-API-Key': 'k1' }, body: '{}' });

  it('follows a redirect within the origin with the same method, body and headers (307/308)', async () => {
    expect(await (await post('/moved')).text()).toBe('POST k1');
  });

  it('follows a 303 with a GET, the headers kept', async () => {
    expect(await (await post('/see-other')).text()).toBe('GET k1');
  });

  it('refuses a redirect to another port or scheme before sending anything there', async () => {
    const before = other.received.length;
    await expect(post('/away')).rejects.toThrow(new CrossOriginRedirectError(301, new URL(`${server.origin}/away`), new URL(`${other.origin}/mcp`)));
    await expect(post('/https')).rejects.toThrow(CrossOriginRedirectError);
    expect(other.received.length).toBe(before);
  });

  it(`stops a redirect loop after ${MAX_REDIRECTS} redirects`, async () => {
    await expect(post('/loop')).rejects.toThrow(`the server redirected more than ${MAX_REDIRECTS} times in a row (last to ${server.origin}/loop)`);
  });
});
