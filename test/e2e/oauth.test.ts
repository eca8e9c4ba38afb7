import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followToCallback } from '../../fixtures/oauth-browser.js';
import { CI_CLIENT, startOAuthFixture, type OAuthFixture } from '../helpers/oauth-fixture.js';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';
import { runInProcess } from '../helpers/run-in-process.js';

const BROWSER = join(FIXTURES, 'oauth-browser.js');

let fixture: OAuthFixture;
let folder: string;
let configPath: string;

beforeAll(async () => {
  fixture = await startOAuthFixture();
  folder = mkdtempSync(join(tmpdir(), 'toolrun-oauth-'));
  configPath = join(folder, 'toolrun.config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      retry: { attempts: 1 },
      mcpServers: {
        oauthy: { url: fixture.mcpUrl },
        ci: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } },
      },
    }),
  );
});
afterAll(async () => {
  await fixture?.close();
});

/** A fresh token store per test: tests do not depend on each other's logins. */
function dataHome(): string {
  return mkdtempSync(join(tmpdir(), 'toolrun-oauth-data-'));
}

function toolrun(args: string[], home: string, env: Record<string, string | undefined> = {}) {
  return runInProcess(['--config', configPath, ...args], { env: toolrunEnv(home, env) });
}

/**
 * toolrun as its own process: for a test that writes to its stdin, and for parallel toolruns that
 * share one token store (each process sets its own inline login and auth warnings: src/cli.ts).
 */
function toolrunSpawned(args: string[], home: string, env: Record<string, string | undefined> = {}, options: Parameters<typeof runToolrun>[1] = {}) {
  return runToolrun(['--config', configPath, ...args], { ...options, env: toolrunEnv(home, env) });
}

function toolrunEnv(home: string, env: Record<string, string | undefined>) {
  return { XDG_DATA_HOME: home, BROWSER: undefined, CI_SECRET: CI_CLIENT.secret, ...env };
}

function storedRecord(home: string, server = 'oauthy') {
  const dir = join(home, 'toolrun', 'auth');
  const name = readdirSync(dir).find((file) => file.startsWith(`${server}-`) && file.endsWith('.json'))!;
  return { path: join(dir, name), record: JSON.parse(readFileSync(join(dir, name), 'utf8')) };
}

async function login(home: string) {
  const started = performance.now();
  const result = await toolrun(['auth', 'login', 'oauthy'], home, { BROWSER });
  return { ...result, ms: performance.now() - started };
}

/** Makes the stored access token look expired to toolrun (the JWT itself stays valid: the refresh is toolrun's own decision). */
function expireStoredToken(home: string) {
  const { path, record } = storedRecord(home);
  record.tokens.expires_at = Date.now() - 1000;
  writeFileSync(path, JSON.stringify(record));
  return record.tokens.access_token as string;
}

describe('OAuth for remote servers (SPEC §14)', () => {
  it('logs in through $BROWSER, then exec uses the stored token; status shows issuer and scopes, never the token', async () => {
    const home = dataHome();
    const loggedIn = await login(home);
    expect(loggedIn.exitCode, loggedIn.stderr).toBe(0);
    expect(loggedIn.stdout).toMatch(new RegExp(`logged in to oauthy \\(issuer ${fixture.issuer}/?, scopes mcp:read mcp:write, expires \\d{4}-`));
    console.log(`auth login with $BROWSER automation: ${Math.round(loggedIn.ms)} ms`);

    const { path, record } = storedRecord(home);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'toolrun', 'auth')).mode & 0o777).toBe(0o700);
    const token = record.tokens.access_token as string;
    expect(record.client.client_id).toBeTruthy();

    const grantsBefore = { ...fixture.grants };
    const asRequestsBefore = fixture.asRequests;
    const exec = await toolrun(['exec', 'oauthy:echo', 'message=hi'], home);
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout.trim()).toBe('hi');
    // The happy path: no discovery, no token request.
    expect(fixture.asRequests).toBe(asRequestsBefore);
    expect(fixture.grants).toEqual(grantsBefore);

    const status = await toolrun(['auth', 'status'], home);
    const statusJson = await toolrun(['--json', 'auth', 'status', 'oauthy'], home);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(`oauthy (${fixture.mcpUrl}): logged in; issuer ${fixture.issuer}`);
    expect(status.stdout).toContain('scopes mcp:read mcp:write');
    const parsed = JSON.parse(statusJson.stdout);
    expect(parsed.servers[0]).toMatchObject({ server: 'oauthy', client_id: record.client.client_id, scopes: ['mcp:read', 'mcp:write'], logged_in: true, refreshable: true });
    for (const output of [loggedIn, exec, status, statusJson]) {
      expect(output.stdout + output.stderr).not.toContain(token);
      expect(output.stdout + output.stderr).not.toContain(record.tokens.refresh_token);
    }

    const logout = await toolrun(['auth', 'logout', 'oauthy'], home);
    expect(logout.exitCode).toBe(0);
    expect(readdirSync(join(home, 'toolrun', 'auth')).filter((name) => name.endsWith('.json'))).toEqual([]);
    const after = await toolrun(['exec', 'oauthy:echo', 'message=hi'], home);
    expect(after.exitCode).toBe(4);
  });

  it('mcp doctor: without a login the auth step names toolrun auth login (exit 4); after one it says what is stored, never the token, and connects', async () => {
    const home = dataHome();
    const before = await toolrun(['mcp', 'doctor', 'oauthy'], home);
    expect(before.exitCode, before.stdout).toBe(4);
    expect(before.stdout).toMatch(/✔ auth {8}authorization required: issuer .* · no stored token: toolrun auth login oauthy/);
    expect((await login(home)).exitCode).toBe(0);
    const after = await toolrun(['mcp', 'doctor', 'oauthy'], home);
    expect(after.exitCode, after.stdout).toBe(0);
    expect(after.stdout).toMatch(/✔ auth {8}authorization required: issuer .*token stored/);
    expect(after.stdout).toContain('✔ initialize');
    const { record } = storedRecord(home);
    expect(after.stdout + after.stderr).not.toContain(record.tokens.access_token);
  });

  it('auth login of a server that does not answer: exit 4 naming the URL and the cause; a port out of range: exit 2', async () => {
    const home = dataHome();
    const config = join(folder, 'down.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { down: { url: 'http://127.0.0.1:47555/mcp' } } }));
    const down = await runInProcess(['--config', config, 'auth', 'login', 'down'], { env: { XDG_DATA_HOME: home, BROWSER: BROWSER } });
    expect(down.exitCode).toBe(4);
    expect(down.stderr).toContain('✖ cannot log in to http://127.0.0.1:47555/mcp: a request of the login got no answer (ECONNREFUSED)');
    const port = await toolrun(['auth', 'login', 'oauthy', '--callback-port', '99999'], home);
    expect(port.exitCode).toBe(2);
    expect(port.stderr).toContain('expected a port from 1 to 65535');
  });

  it('without a token, a terminal or $BROWSER: exit 4 at once, naming toolrun auth login SERVER, before any discovery', async () => {
    const home = dataHome();
    const before = fixture.asRequests;
    const result = await toolrun(['exec', 'oauthy:echo', 'message=hi'], home);
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stderr).toContain('toolrun auth login oauthy');
    expect(fixture.asRequests).toBe(before);
    const json = await toolrun(['--json', 'exec', 'oauthy:echo', 'message=hi'], home);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, error_kind: 'unreachable' });
  });

  it('--no-browser prints the URL on stderr and takes the redirected URL pasted on stdin', async () => {
    const home = dataHome();
    const child = toolrunSpawned(['auth', 'login', 'oauthy', '--no-browser'], home, {}, { stdin: 'pipe' });
    let stderr = '';
    const pasted = new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const url = /^\s+(http:\/\/\S+\/auth\?\S+)$/m.exec(stderr)?.[1];
        if (!url) return;
        child.stderr!.removeAllListeners('data');
        // The redirect is not requested: a person copies it from the browser's address bar.
        followToCallback(url).then((redirected) => {
          child.stdin!.write(`${redirected}\n`);
          resolve();
        }, reject);
      });
    });
    await pasted;
    const result = await child;
    expect(result.exitCode, stderr).toBe(0);
    expect(result.stdout).toContain('logged in to oauthy');
    const exec = await toolrun(['exec', 'oauthy:echo', 'message=pasted'], home);
    expect(exec.stdout.trim()).toBe('pasted');
  });

  it('refreshes an expired token once, and 5 parallel execs refresh it once (the rotating refresh token is not replayed)', async () => {
    const home = dataHome();
    expect((await login(home)).exitCode).toBe(0);
    const old = expireStoredToken(home);
    const refreshesBefore = fixture.grants.refresh_token ?? 0;
    const runs = await Promise.all(Array.from({ length: 5 }, (_, index) => toolrunSpawned(['exec', 'oauthy:echo', `message=run${index}`], home)));
    for (const [index, run] of runs.entries()) {
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(`run${index}`);
    }
    expect((fixture.grants.refresh_token ?? 0) - refreshesBefore).toBe(1);
    expect(storedRecord(home).record.tokens.access_token).not.toBe(old);
  });

  it('5 parallel execs with an empty token store and $BROWSER log in once; the others take its tokens', async () => {
    const home = dataHome();
    const codesBefore = fixture.grants.authorization_code ?? 0;
    // Consent is held until all five were refused without a token: a run started after the login ended
    // would find its tokens stored and never need a login (a race on a fast machine, not what is tested).
    let release!: () => void;
    fixture.holdConsent(new Promise<void>((resolve) => (release = resolve)));
    const allChallenged = fixture.discoverChallenged(5);
    const started = Promise.all(Array.from({ length: 5 }, (_, index) => toolrunSpawned(['exec', 'oauthy:echo', `message=run${index}`], home, { BROWSER })));
    let waited: NodeJS.Timeout | undefined;
    const unchallenged = new Promise<string>((resolve) => (waited = setTimeout(() => resolve('fewer than 5 runs were refused without a token within 10 s'), 10_000)));
    const outcome = await Promise.race([allChallenged, started, unchallenged]);
    clearTimeout(waited);
    release();
    fixture.holdConsent(undefined);
    const runs = await started;
    expect(outcome).not.toBe('fewer than 5 runs were refused without a token within 10 s');
    for (const [index, run] of runs.entries()) {
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(`run${index}`);
    }
    expect((fixture.grants.authorization_code ?? 0) - codesBefore).toBe(1);
    expect(runs.filter((run) => run.stderr.includes('another toolrun logged in to oauthy meanwhile; continuing with its tokens'))).toHaveLength(4);
  });

  it('a token the server refuses (401) is refreshed and the request sent again', async () => {
    const home = dataHome();
    expect((await login(home)).exitCode).toBe(0);
    expect((await toolrun(['exec', 'oauthy:echo', 'message=first'], home)).exitCode).toBe(0);
    fixture.rejectSeenTokens();
    const refreshesBefore = fixture.grants.refresh_token ?? 0;
    const again = await toolrun(['exec', 'oauthy:echo', 'message=again'], home);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('again');
    expect((fixture.grants.refresh_token ?? 0) - refreshesBefore).toBe(1);
  });

  it('invalid_grant on refresh clears the tokens and names toolrun auth login SERVER', async () => {
    const home = dataHome();
    expect((await login(home)).exitCode).toBe(0);
    const { path, record } = storedRecord(home);
    Object.assign(record.tokens, { expires_at: Date.now() - 1000, refresh_token: 'not-a-refresh-token' });
    writeFileSync(path, JSON.stringify(record));
    const result = await toolrun(['exec', 'oauthy:echo', 'message=hi'], home);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('invalid_grant');
    expect(result.stderr).toContain('toolrun auth login oauthy');
    expect(storedRecord(home).record.tokens).toBeUndefined();
  });

  it('client_credentials gets a token without a browser (CI), the secret from ${VAR} never printed', async () => {
    const home = dataHome();
    const exec = await toolrun(['exec', 'ci:echo', 'message=ci'], home);
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout.trim()).toBe('ci');
    const { record } = storedRecord(home, 'ci');
    expect(record.client).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain(CI_CLIENT.secret);
    const status = await toolrun(['auth', 'status', 'ci'], home);
    expect(status.stdout).toContain('ci (');
    expect(status.stdout + status.stderr).not.toContain(record.tokens.access_token);
    const login = await toolrun(['auth', 'login', 'ci'], home);
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stdout).toContain('logged in to ci');
  });
});
