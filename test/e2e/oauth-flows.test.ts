import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../helpers/oauth-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

// SPEC §14 beyond the happy path of oauth.test.ts: the 2026-07-28 era, 403 insufficient_scope,
// a login inline in another command, and the 2025-03-26 discovery fallbacks.
const BROWSER = join(FIXTURES, 'oauth-browser.js');

const fixtures: Record<string, OAuthFixture> = {};
let configPath: string;

beforeAll(async () => {
  [fixtures.oauthy, fixtures.modern, fixtures.rootmeta, fixtures.defaults] = await Promise.all([
    startOAuthFixture(),
    startOAuthFixture({ era: 'modern' }),
    startOAuthFixture({ discovery: 'origin-metadata' }),
    startOAuthFixture({ discovery: 'default-endpoints' }),
  ]);
  configPath = join(mkdtempSync(join(tmpdir(), 'toolrun-oauth-flows-')), 'toolrun.config.json');
  const mcpServers = Object.fromEntries(Object.entries(fixtures).map(([name, fixture]) => [name, { url: fixture.mcpUrl }]));
  writeFileSync(configPath, JSON.stringify({ retry: { attempts: 1 }, mcpServers }));
});
afterAll(async () => {
  await Promise.all(Object.values(fixtures).map((fixture) => fixture.close()));
});

function dataHome(): string {
  return mkdtempSync(join(tmpdir(), 'toolrun-oauth-data-'));
}

function toolrun(args: string[], home: string, env: Record<string, string | undefined> = {}) {
  return runInProcess(['--config', configPath, ...args], { env: { XDG_DATA_HOME: home, BROWSER: undefined, ...env } });
}

function storedRecord(home: string, server: string) {
  const dir = join(home, 'toolrun', 'auth');
  const name = readdirSync(dir).find((file) => file.startsWith(`${server}-`) && file.endsWith('.json'))!;
  return { path: join(dir, name), record: JSON.parse(readFileSync(join(dir, name), 'utf8')) };
}

async function login(home: string, server: string) {
  const result = await toolrun(['auth', 'login', server], home, { BROWSER });
  expect(result.exitCode, result.stderr).toBe(0);
  return result;
}

describe('OAuth in the 2026-07-28 era (SPEC §10, §14)', () => {
  it('logs in, execs through the stored token over server/discover, and refreshes on a 401', async () => {
    const fixture = fixtures.modern!;
    const home = dataHome();
    await login(home, 'modern');
    const exec = await toolrun(['exec', 'modern:echo', 'message=hi'], home);
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout.trim()).toBe('hi');
    const doctor = await toolrun(['--json', 'mcp', 'doctor', 'modern'], home);
    const initialize = JSON.parse(doctor.stdout).steps.find((step: { id: string }) => step.id === 'initialize');
    expect(initialize).toMatchObject({ status: 'ok', data: { handshake: 'server/discover', protocol_version: '2026-07-28' } });

    fixture.rejectSeenTokens();
    const refreshesBefore = fixture.grants.refresh_token ?? 0;
    const again = await toolrun(['exec', 'modern:echo', 'message=again'], home);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('again');
    expect((fixture.grants.refresh_token ?? 0) - refreshesBefore).toBe(1);
  });

  it('without a token or a browser to answer: exit 4 naming toolrun auth login, before any discovery', async () => {
    const fixture = fixtures.modern!;
    const before = fixture.asRequests;
    const result = await toolrun(['exec', 'modern:echo', 'message=hi'], dataHome());
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stderr).toContain('toolrun auth login modern');
    expect(fixture.asRequests).toBe(before);
  });
});

describe('403 insufficient_scope (SPEC §14)', () => {
  it.each(['oauthy', 'modern'])('%s: with $BROWSER, re-authorizes with the union of the stored scopes and the new one, then the call goes through', async (server) => {
    const fixture = fixtures[server]!;
    const home = dataHome();
    await login(home, server);
    const codesBefore = fixture.grants.authorization_code ?? 0;
    const exec = await toolrun(['exec', `${server}:admin_echo`, 'message=hi'], home, { BROWSER });
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout.trim()).toBe('admin: hi');
    expect(exec.stderr).toContain(`'${server}' needs an OAuth login with scopes 'mcp:read mcp:write mcp:admin'`);
    expect((fixture.grants.authorization_code ?? 0) - codesBefore).toBe(1);
    expect(storedRecord(home, server).record.tokens.scope.split(' ').sort()).toEqual(['mcp:admin', 'mcp:read', 'mcp:write']);
    // The wider token serves the plain tool too, with no new login.
    const plain = await toolrun(['exec', `${server}:echo`, 'message=plain'], home);
    expect(plain.stdout.trim()).toBe('plain');
  });

  it('without a browser to answer: exit 4 naming toolrun auth login SERVER --scope with the union', async () => {
    const home = dataHome();
    await login(home, 'oauthy');
    const exec = await toolrun(['exec', 'oauthy:admin_echo', 'message=hi'], home);
    expect(exec.exitCode, exec.stderr).toBe(4);
    expect(exec.stderr).toContain("toolrun auth login oauthy --scope 'mcp:read mcp:write mcp:admin'");
    expect(exec.stderr).toContain('insufficient_scope');
    const json = await toolrun(['--json', 'exec', 'oauthy:admin_echo', 'message=hi'], home);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, error_kind: 'unreachable' });
  });

  it('a server that keeps refusing for lack of scope: one re-authorization, then exit 4 (no loop)', async () => {
    const fixture = fixtures.oauthy!;
    const home = dataHome();
    await login(home, 'oauthy');
    fixture.refuseAdminAlways(true);
    try {
      const refusedBefore = fixture.refusedForScope;
      const codesBefore = fixture.grants.authorization_code ?? 0;
      const exec = await toolrun(['exec', 'oauthy:admin_echo', 'message=hi'], home, { BROWSER });
      expect(exec.exitCode, exec.stderr).toBe(4);
      expect(exec.stderr).toContain("toolrun auth login oauthy --scope 'mcp:read mcp:write mcp:admin'");
      expect(fixture.refusedForScope - refusedBefore).toBe(2);
      expect((fixture.grants.authorization_code ?? 0) - codesBefore).toBe(1);
    } finally {
      fixture.refuseAdminAlways(false);
    }
  });
});

describe('a login inline in another command (SPEC §14: someone can answer the browser)', () => {
  it.each(['oauthy', 'modern'])('%s: exec with an empty token store and $BROWSER logs in, stores the token and answers', async (server) => {
    const home = dataHome();
    const exec = await toolrun(['exec', `${server}:echo`, 'message=hi'], home, { BROWSER });
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout.trim()).toBe('hi');
    expect(exec.stderr).toMatch(new RegExp(`'${server}' needs an OAuth login: opening the browser on\\n\\n  http://127\\.0\\.0\\.1:\\d+/auth\\?`));
    const { record } = storedRecord(home, server);
    expect(record.tokens.access_token).toBeTruthy();
    expect(exec.stdout + exec.stderr).not.toContain(record.tokens.access_token);
    // Stored: the next command needs no browser.
    const again = await toolrun(['exec', `${server}:echo`, 'message=again'], home);
    expect(again.stdout.trim()).toBe('again');
  });

  it('a $BROWSER that cannot start ends the command at once with exit 4 naming toolrun auth login (no wait for a callback)', async () => {
    const exec = await toolrun(['exec', 'oauthy:echo', 'message=hi'], dataHome(), { BROWSER: '/nonexistent/browser' });
    expect(exec.exitCode, exec.stderr).toBe(4);
    expect(exec.stderr).toContain("$BROWSER (/nonexistent/browser) could not be started for the OAuth login of 'oauthy'");
    expect(exec.stderr).toContain('toolrun auth login oauthy');
  });

  it('a $BROWSER that fails (exit status not 0) ends the login at once: exec and auth login exit 4 saying so, no wait for the callback', async () => {
    const exec = await toolrun(['exec', 'oauthy:echo', 'message=hi'], dataHome(), { BROWSER: '/bin/false' });
    expect(exec.exitCode, exec.stderr).toBe(4);
    expect(exec.stderr).toContain("$BROWSER (/bin/false) exited with status 1 before the OAuth login of 'oauthy' ended");
    expect(exec.stderr).toContain('toolrun auth login oauthy');
    const login = await toolrun(['auth', 'login', 'oauthy'], dataHome(), { BROWSER: '/bin/false' });
    expect(login.exitCode, login.stderr).toBe(4);
    expect(login.stderr).toContain('$BROWSER (/bin/false) exited with status 1 before the login ended; fix it, or use --no-browser');
  });

  it('mcp doctor with $BROWSER and no token: the auth step says the connection logs in, and it does', async () => {
    const home = dataHome();
    const doctor = await toolrun(['mcp', 'doctor', 'oauthy'], home, { BROWSER });
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain('no stored token: the connection logs in (a browser opens)');
    expect(doctor.stdout).toContain('✔ initialize');
    expect(storedRecord(home, 'oauthy').record.tokens.access_token).toBeTruthy();
  });

  it('list logs in to every server at once (both eras, both fallbacks), each once', async () => {
    const home = dataHome();
    const codesBefore = Object.fromEntries(Object.entries(fixtures).map(([name, fixture]) => [name, fixture.grants.authorization_code ?? 0]));
    const list = await toolrun(['list'], home, { BROWSER });
    expect(list.exitCode, list.stderr).toBe(0);
    for (const [name, fixture] of Object.entries(fixtures)) {
      expect(list.stdout).toContain(`${name}:admin_echo`);
      expect(storedRecord(home, name).record.tokens.access_token).toBeTruthy();
      expect((fixture.grants.authorization_code ?? 0) - codesBefore[name]!).toBe(1);
    }
  });
});

describe('the 2025-03-26 discovery fallbacks (SPEC §14)', () => {
  it.each([
    ['rootmeta', 'no protected resource metadata; authorization server metadata at the MCP server’s origin'],
    ['defaults', 'no metadata at all: /authorize, /token, /register at the origin'],
  ])('%s (%s): login, exec and a refresh on a 401 work', async (server) => {
    const fixture = fixtures[server]!;
    const home = dataHome();
    const loggedIn = await login(home, server);
    // The 2025-03-26 default endpoint, or the one the metadata at the origin names.
    expect(loggedIn.stderr).toContain(`opening the browser on ${fixture.issuer}/${server === 'defaults' ? 'authorize' : 'auth'} `);
    const exec = await toolrun(['exec', `${server}:echo`, 'message=hi'], home);
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout.trim()).toBe('hi');
    fixture.rejectSeenTokens();
    const again = await toolrun(['exec', `${server}:echo`, 'message=again'], home);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('again');
    expect(fixture.grants.refresh_token).toBe(1);
  });
});
