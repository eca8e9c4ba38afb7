import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CI_CLIENT, startOAuthFixture, type OAuthFixture } from '../helpers/oauth-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

// Issue #32: the OAuth dead ends, each run against a real authorization server on 127.0.0.1.
const BROWSER = join(FIXTURES, 'oauth-browser.js');

let fixture: OAuthFixture;
let folder: string;
let configPath: string;

beforeAll(async () => {
  fixture = await startOAuthFixture();
  folder = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-'));
  configPath = join(folder, 'toolrun.config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      retry: { attempts: 1 },
      mcpServers: { oauthy: { url: fixture.mcpUrl }, ci: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } } },
    }),
  );
});
afterAll(async () => {
  await fixture?.close();
});

function toolrun(args: string[], home: string, env: Record<string, string | undefined> = {}) {
  return runInProcess(['--config', configPath, ...args], { env: { XDG_DATA_HOME: home, BROWSER: undefined, ...env } });
}

function storedRecord(home: string) {
  const dir = join(home, 'toolrun', 'auth');
  const name = readdirSync(dir).find((file) => file.startsWith('oauthy-') && file.endsWith('.json'))!;
  return { path: join(dir, name), record: JSON.parse(readFileSync(join(dir, name), 'utf8')) };
}

/** The authorization server forgot toolrun's client (a reset, an expiry): the stored id is one it never issued. */
function forgetRegistration(home: string) {
  const { path, record } = storedRecord(home);
  record.client.client_id = 'forgotten-client';
  record.tokens.expires_at = Date.now() - 1000;
  writeFileSync(path, JSON.stringify(record));
}

describe('OAuth dead ends (issue #32)', () => {
  it('a registration the authorization server forgot: exec says so in one line (exit 4), status tells the truth, login registers again', async () => {
    const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
    const first = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER });
    expect(first.exitCode, first.stderr).toBe(0);
    forgetRegistration(home);

    const exec = await toolrun(['exec', 'oauthy:echo', 'message=hi'], home);
    expect(exec.exitCode).toBe(4);
    expect(exec.stderr).toMatch(/registration .*refused by the authorization server \(invalid_client/);
    expect(exec.stderr).toContain('toolrun auth login oauthy');
    expect(exec.stderr).not.toMatch(/internal error|mcp doctor/);

    const status = await toolrun(['auth', 'status', 'oauthy'], home);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain('registration refused by the authorization server: run toolrun auth login oauthy');
    expect(status.stdout).not.toContain('logged in');
    // Doctor no longer says a token is stored: it names the login.
    const doctor = await toolrun(['mcp', 'doctor', 'oauthy'], home);
    expect(doctor.exitCode).toBe(4);
    expect(doctor.stdout).toMatch(/no stored token: toolrun auth login oauthy/);

    const again = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(storedRecord(home).record.client.client_id).not.toBe('forgotten-client');
    const after = await toolrun(['exec', 'oauthy:echo', 'message=hi'], home);
    expect(after.exitCode, after.stderr).toBe(0);
  }, 30_000);

  it('a wrong configured clientSecret: auth login and exec say so in one line naming oauth.clientSecret, exit 4, never "internal error"', async () => {
    const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
    const login = await toolrun(['auth', 'login', 'ci'], home, { CI_SECRET: 'not-the-secret' });
    expect(login.exitCode, login.stderr).toBe(4);
    expect(login.stderr.trim().split('\n')).toHaveLength(1);
    expect(login.stderr).toMatch(/refused the client of 'ci'.*oauth\.clientSecret/);
    expect(login.stderr).not.toMatch(/internal error|not-the-secret/);

    const exec = await toolrun(['exec', 'ci:echo', 'message=hi'], home, { CI_SECRET: 'not-the-secret' });
    expect(exec.exitCode).toBe(4);
    expect(exec.stderr).toMatch(/refused the client of 'ci'/);
    expect(exec.stderr).toContain('oauth.clientSecret');
    expect(exec.stderr).not.toMatch(/internal error|not-the-secret|connected \(\)/);
  }, 30_000);

  it('$BROWSER with arguments is split as shell words; one naming no program is one line, exit 4; an unclosed quote exit 2', async () => {
    const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
    const withArgs = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER: `node '${BROWSER}'` });
    expect(withArgs.exitCode, withArgs.stderr).toBe(0);

    const missing = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER: '/nonexistent/browser --new-window' });
    expect(missing.exitCode, missing.stderr).toBe(4);
    expect(
      missing.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('opening the browser')),
    ).toHaveLength(1);
    expect(missing.stderr).toMatch(/\$BROWSER.*\/nonexistent\/browser.*--no-browser/);
    expect(missing.stderr).not.toContain('internal error');

    const unclosed = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER: "node 'oops" });
    expect(unclosed.exitCode, unclosed.stderr).toBe(2);
    expect(unclosed.stderr).toMatch(/\$BROWSER/);
    expect(unclosed.stderr).not.toContain('internal error');
  }, 30_000);

  it('auth login of a server that needs no authorization: one line saying so, exit 2, no HTML page', async () => {
    // Lets initialize through without a token, no OAuth metadata anywhere (404 HTML pages, as many frameworks answer).
    const open = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/mcp')
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: 'toolrun-auth', result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'open', version: '1' } } }));
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>');
    });
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    try {
      const openConfig = join(folder, 'open.config.json');
      writeFileSync(openConfig, JSON.stringify({ mcpServers: { plain: { url: `http://127.0.0.1:${(open.address() as AddressInfo).port}/mcp` } } }));
      const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
      const result = await runInProcess(['--config', openConfig, 'auth', 'login', 'plain'], { env: { XDG_DATA_HOME: home, BROWSER } });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/'plain' needs no OAuth login/);
      expect(result.stderr).not.toMatch(/internal error|<html|DOCTYPE/i);
    } finally {
      open.closeAllConnections();
      await new Promise((resolve) => open.close(resolve));
    }
  }, 30_000);

  it('auth logout revokes the tokens where the authorization server advertises revocation_endpoint, else says they stay valid', async () => {
    const revoking = await startOAuthFixture({ revocation: true });
    try {
      const revokingConfig = join(folder, 'revoking.config.json');
      writeFileSync(revokingConfig, JSON.stringify({ mcpServers: { oauthy: { url: revoking.mcpUrl } } }));
      const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
      const run = (args: string[]) => runInProcess(['--config', revokingConfig, ...args], { env: { XDG_DATA_HOME: home, BROWSER } });
      expect((await run(['auth', 'login', 'oauthy'])).exitCode).toBe(0);
      const { record } = storedRecord(home);
      const logout = await run(['auth', 'logout', 'oauthy']);
      expect(logout.exitCode, logout.stderr).toBe(0);
      expect(logout.stdout).toMatch(/logged out of oauthy; its (tokens were|refresh token was) revoked at the authorization server/);
      // The refresh token is dead at the authorization server, not only forgotten here.
      const refresh = await fetch(record.discovery.authorizationServerMetadata.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: record.tokens.refresh_token, client_id: record.client.client_id }).toString(),
      });
      expect(refresh.status).toBe(400);
      expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    } finally {
      await revoking.close();
    }

    const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
    expect((await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER })).exitCode).toBe(0);
    const kept = await toolrun(['auth', 'logout', 'oauthy'], home);
    expect(kept.exitCode, kept.stderr).toBe(0);
    expect(kept.stdout).toMatch(/logged out of oauthy; the authorization server offers no revocation: its tokens stay valid until they expire/);
  }, 40_000);

  it('auth login with a registration the authorization server forgot: /authorize refuses it, toolrun says so and registers again', async () => {
    const home = mkdtempSync(join(tmpdir(), 'toolrun-dead-ends-data-'));
    expect((await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER })).exitCode).toBe(0);
    const { path, record } = storedRecord(home);
    record.client.client_id = 'forgotten-client';
    writeFileSync(path, JSON.stringify(record));

    const again = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/registration .*refused by the authorization server.*registering again/);
    expect(storedRecord(home).record.client.client_id).not.toBe('forgotten-client');
  }, 30_000);
});
