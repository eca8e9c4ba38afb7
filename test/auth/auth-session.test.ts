import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authFetch } from '../../src/auth/auth-fetch.js';
import { AuthRequiredError } from '../../src/auth/auth-errors.js';
import { AuthSession } from '../../src/auth/auth-session.js';
import type { InlineLogin } from '../../src/auth/inline-login.js';
import { StoredOAuthProvider } from '../../src/auth/provider.js';
import { TokenStore } from '../../src/auth/token-store.js';

// The 401 side of AuthSession with a scripted server and a scripted inline login (the flow itself is
// tested end to end in test/e2e/oauth*.test.ts and by the official conformance suite in .ci/conformance).
describe('AuthSession: when a login is started', () => {
  let folder: string;
  let store: TokenStore;
  const server = { name: 'remote', url: 'http://127.0.0.1:1/mcp', headers: {} };
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'toolrun-auth-session-'));
    store = new TokenStore({ XDG_DATA_HOME: folder });
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** A login that stores T1, T2, … (no refresh token) and records the scope it was asked for. */
  const scriptedLogin =
    (scopes: Array<string | undefined>): InlineLogin =>
    async (target, scope) => {
      scopes.push(scope);
      store.write({ version: 1, server: target.name, serverUrl: target.url, tokens: { access_token: `T${scopes.length}`, token_type: 'Bearer' } });
    };
  const challenge = (status: number, params = 'scope="mcp:basic"') => new Response('{}', { status, headers: { 'www-authenticate': `Bearer ${params}` } });
  const bearer = (init: RequestInit | undefined) => new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '');

  it('nothing stored and someone to log in: the first request goes without a token, and the login asks for the scope of its 401', async () => {
    const scopes: Array<string | undefined> = [];
    const provider = new StoredOAuthProvider({ server, store, mode: 'connect' });
    const session = new AuthSession(server, store, provider, scriptedLogin(scopes));
    const sent: Array<string | undefined> = [];
    const fetchOf = authFetch(async (_input, init) => (sent.push(bearer(init)), bearer(init) ? new Response('ok') : challenge(401)), session);
    expect(await (await fetchOf('http://127.0.0.1:1/mcp', { method: 'POST' })).text()).toBe('ok');
    expect(sent).toEqual([undefined, 'T1']);
    expect(scopes).toEqual(['mcp:basic']);
  });

  it('a token the server accepted and then refuses (moved to another authorization server, SEP-2352) gets one new login', async () => {
    const scopes: Array<string | undefined> = [];
    const session = new AuthSession(server, store, undefined, scriptedLogin(scopes));
    let t1Answers = 0;
    const fetchOf = authFetch(async (_input, init) => {
      const token = bearer(init);
      if (token === 'T1' && t1Answers++ === 0) return new Response('first');
      return token === 'T2' ? new Response('second') : challenge(401);
    }, session);
    expect(await (await fetchOf('http://127.0.0.1:1/mcp')).text()).toBe('first');
    expect(await (await fetchOf('http://127.0.0.1:1/mcp')).text()).toBe('second');
    expect(scopes).toEqual(['mcp:basic', 'mcp:basic']);
  });

  it('a server that refuses every token it is given: one login, then the refusal (never a loop)', async () => {
    const scopes: Array<string | undefined> = [];
    const session = new AuthSession(server, store, undefined, scriptedLogin(scopes));
    const fetchOf = authFetch(async () => challenge(401), session);
    await expect(fetchOf('http://127.0.0.1:1/mcp')).rejects.toThrow("'remote' refused the OAuth token toolrun just got (HTTP 401 again)");
    await expect(fetchOf('http://127.0.0.1:1/mcp')).rejects.toThrow(AuthRequiredError);
    expect(scopes).toEqual(['mcp:basic']);
  });

  it('no one to log in and nothing stored: AuthRequiredError before any request', async () => {
    const provider = new StoredOAuthProvider({ server, store, mode: 'connect' });
    const session = new AuthSession(server, store, provider, undefined);
    let requests = 0;
    const fetchOf = authFetch(async () => (requests++, new Response('ok')), session);
    await expect(fetchOf('http://127.0.0.1:1/mcp')).rejects.toThrow("'remote' needs an OAuth login and no token is stored");
    expect(requests).toBe(0);
  });
});
