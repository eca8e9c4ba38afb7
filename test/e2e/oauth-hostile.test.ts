import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHostileAuthServer, type HostileAuthServer } from '../helpers/hostile-auth-server.js';
import { waitFor } from '../helpers/processes.js';
import { FIXTURES } from '../helpers/run-toolrun.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Issue #31 item 5: an authorization server (or what its metadata names) that misbehaves on purpose,
 * faked on 127.0.0.1: the authorization URL it names, how long and how much it answers, the redirect
 * it sends back, and where a configured client secret goes.
 */
const BROWSER = join(FIXTURES, 'oauth-hostile-browser.js');
const SECRET = 'cfg-secret-8c1d2e';

let fake: HostileAuthServer;
let configPath: string;
let browserLog: string;

beforeAll(async () => {
  fake = await startHostileAuthServer();
  const folder = mkdtempSync(join(tmpdir(), 'toolrun-oauth-hostile-'));
  configPath = join(folder, 'toolrun.config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      retry: { attempts: 1 },
      mcpServers: {
        h: { url: fake.mcpUrl },
        pinned: { url: fake.mcpUrl, oauth: { clientId: 'cfg-client', clientSecret: SECRET, issuer: 'https://auth.example.com' } },
        rightpin: { url: fake.mcpUrl, oauth: { clientId: 'cfg-client', clientSecret: SECRET, issuer: fake.issuer } },
      },
    }),
  );
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.authorizationEndpoint = `${fake.issuer}/authorize`;
  fake.stall = undefined;
  fake.flood = false;
  fake.tokenRequests.length = 0;
  browserLog = join(mkdtempSync(join(tmpdir(), 'toolrun-browser-')), 'opened.log');
});

function toolrun(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'toolrun-oauth-hostile-data-'));
  // In this process: a run the hostile server holds is bounded by the test's own timeout.
  return runInProcess(['--config', configPath, ...args], { env: { XDG_DATA_HOME: home, BROWSER, BROWSER_LOG: browserLog, ...env } });
}

const opened = () => (existsSync(browserLog) ? readFileSync(browserLog, 'utf8') : '');

describe('the authorization URL is opened only when it is a login page', () => {
  it.each([['file:///etc/passwd'], ['vscode://evil/command?x=1'], ['http://example.com/authorize']])('%s: auth login and an inline login exit 4; no browser runs', async (endpoint) => {
    fake.authorizationEndpoint = endpoint;
    for (const args of [
      ['auth', 'login', 'h'],
      ['exec', 'h:echo'],
    ]) {
      const result = await toolrun(args);
      expect(result.exitCode, result.stderr).toBe(4);
      expect(result.stderr).toContain('is not https (http only on this machine: 127.0.0.1, ::1, localhost): toolrun does not open it');
      expect(opened()).toBe('');
    }
  });
});

describe('every request of the flow is bounded', () => {
  it('a stalled authorization server: auth login and exec end with exit 4 within --timeout, not minutes', async () => {
    fake.stall = 'metadata';
    for (const args of [
      ['--timeout', '2000', 'auth', 'login', 'h'],
      ['--timeout', '2000', 'exec', 'h:echo'],
    ]) {
      const result = await toolrun(args);
      expect(result.exitCode, result.stderr).toBe(4);
      // The bound that ended it, named; a stall left unbounded never ends (the test's timeout catches it).
      expect(result.stderr).toContain('did not answer within 2000 ms');
    }
  });

  it('a stalled token endpoint: the same', async () => {
    fake.stall = 'token';
    const result = await toolrun(['--timeout', '2000', 'auth', 'login', 'h'], { HOSTILE_BROWSER: 'wrong-state-first' });
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stderr).toContain(`${fake.issuer}/token did not answer within 2000 ms`);
  });

  it('1 MB of metadata: exit 4, read no further than 256 KB', async () => {
    fake.flood = true;
    const result = await toolrun(['auth', 'login', 'h']);
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stderr).toContain('sent more than 256 KB');
  });
});

describe('the loopback redirect', () => {
  it('error_description is shown as one escaped line', async () => {
    const result = await toolrun(['auth', 'login', 'h'], { HOSTILE_BROWSER: 'error' });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('the authorization server refused the login: access_denied (nope\\x1b]0;pwned\\x07\\x1b[2J\\x0a⚠ forged line)');
    expect(result.stderr.split('\n').filter((line) => line.startsWith('⚠'))).toEqual([]);
    expect(result.stderr).not.toMatch(/[\x1b\x07]/);
  });

  it('a hit with a wrong state gets an error page and the login goes on: the right redirect still logs in', async () => {
    const result = await toolrun(['auth', 'login', 'h'], { HOSTILE_BROWSER: 'wrong-state-first' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('logged in to h');
    // The stand-in browser logs the second status after its response: toolrun may have logged in and
    // exited first (a race seen on a fast machine). Its URL, then the two statuses.
    await waitFor(() => opened().split('\n').length > 3, 5000);
    expect(opened().split('\n').slice(1, 3)).toEqual(['400', '200']);
  });
});

describe('oauth.issuer pins where clientSecret goes', () => {
  it('another authorization server: a warning, and the secret is never sent to it', async () => {
    const result = await toolrun(['auth', 'login', 'pinned'], { HOSTILE_BROWSER: 'wrong-state-first' });
    expect(result.stderr).toContain(`⚠ 'pinned' names the authorization server ${fake.issuer}, not https://auth.example.com that oauth.issuer pins: its clientSecret is not sent there`);
    expect(fake.tokenRequests.length).toBeGreaterThan(0);
    const basic = Buffer.from(`cfg-client:${SECRET}`).toString('base64');
    for (const request of fake.tokenRequests) {
      expect(request.authorization ?? '').not.toContain(basic);
      expect(request.body).not.toContain(SECRET);
    }
  });

  it('the pinned one: the secret is sent (client_secret_basic), no warning', async () => {
    const result = await toolrun(['auth', 'login', 'rightpin'], { HOSTILE_BROWSER: 'wrong-state-first' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('oauth.issuer pins');
    expect(fake.tokenRequests.map((request) => request.authorization)).toEqual([`Basic ${Buffer.from(`cfg-client:${SECRET}`).toString('base64')}`]);
  });
});
