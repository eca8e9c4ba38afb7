import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CI_CLIENT, startOAuthFixture, type OAuthFixture } from '../helpers/oauth-fixture.js';
import { CLIENT_KEYS, ENTERPRISE_CLIENT, IDP_CLIENT_ID, idToken, JWT_BEARER, KEY_CLIENT_ID, WORKLOAD_CLIENT_ID, workloadToken } from '../helpers/oauth-machine-grants.js';
import { FIXTURES } from '../helpers/run-toolrun.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * OAuth for machines (SPEC §21) end to end against the in-process authorization server (oidc-provider,
 * which authenticates the clients and checks DPoP proofs at its token endpoint): private_key_jwt,
 * workload identity federation, enterprise-managed authorization, DPoP with and without nonces,
 * and `auth login` reading its challenge past an open `initialize`. Each failure is one line, the
 * right exit code, no secret printed.
 */
const BROWSER = join(FIXTURES, 'oauth-browser.js');

function dataHome(): string {
  return mkdtempSync(join(tmpdir(), 'toolrun-oauth-machine-'));
}

function writeConfig(servers: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolrun-oauth-machine-config-')), 'toolrun.config.json');
  writeFileSync(path, JSON.stringify({ retry: { attempts: 1 }, mcpServers: servers }));
  return path;
}

function toolrun(config: string, args: string[], home: string, env: Record<string, string | undefined> = {}) {
  return runInProcess(['--config', config, ...args], { env: { XDG_DATA_HOME: home, BROWSER: undefined, ...env } });
}

function storedRecord(home: string, server: string) {
  const dir = join(home, 'toolrun', 'auth');
  const name = readdirSync(dir).find((file) => file.startsWith(`${server}-`) && file.endsWith('.json'))!;
  return JSON.parse(readFileSync(join(dir, name), 'utf8'));
}

/**
 * A connection failure as exec reports every one: the reason on one line, the check to make on the
 * next, and the call's own one-line error; no stack, nothing else. Returned flattened, for matching.
 */
function failure(text: string): string {
  const lines = text.trim().split('\n');
  expect(lines.length, text).toBeLessThanOrEqual(4);
  expect(text).not.toMatch(/^\s+at /m);
  return lines.map((line) => line.trim()).join(' ');
}

describe('without DPoP', () => {
  let fixture: OAuthFixture;
  let config: string;
  let keyFile: string;
  let openKeyFile: string;
  beforeAll(async () => {
    fixture = await startOAuthFixture();
    keyFile = join(mkdtempSync(join(tmpdir(), 'toolrun-keys-')), 'client.pem');
    writeFileSync(keyFile, CLIENT_KEYS.rs256, { mode: 0o600 });
    openKeyFile = join(dirname(keyFile), 'open.pem');
    writeFileSync(openKeyFile, CLIENT_KEYS.rs256);
    chmodSync(openKeyFile, 0o644);
    config = writeConfig({
      'rsa-open': { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: KEY_CLIENT_ID, privateKeyFile: openKeyFile, signingAlgorithm: 'RS256', keyId: 'rsa-1' } },
      keyed: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: KEY_CLIENT_ID, privateKey: '${CLIENT_KEY}' } },
      rsa: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: KEY_CLIENT_ID, privateKeyFile: keyFile, signingAlgorithm: 'RS256', keyId: 'rsa-1' } },
      workload: { url: fixture.mcpUrl, oauth: { grant: 'jwt_bearer', clientId: WORKLOAD_CLIENT_ID, assertion: '${CI_OIDC_TOKEN}' } },
      'workload-file': { url: fixture.mcpUrl, oauth: { grant: 'jwt_bearer', clientId: WORKLOAD_CLIENT_ID, assertionFile: 'ci-token' } },
      'workload-cmd': { url: fixture.mcpUrl, oauth: { grant: 'jwt_bearer', clientId: WORKLOAD_CLIENT_ID, assertionCommand: 'printf %s "$CI_OIDC_TOKEN"' } },
      // A JWT, then 4,000 characters on the same line: the 4,096 kept of its stderr start inside the JWT.
      'workload-long': {
        url: fixture.mcpUrl,
        oauth: { grant: 'jwt_bearer', clientId: WORKLOAD_CLIENT_ID, assertionCommand: `printf '%s ' "$LONG_JWT" >&2; head -c 4000 /dev/zero | tr '\\0' y >&2; exit 3` },
      },
      'workload-fails': {
        url: fixture.mcpUrl,
        oauth: { grant: 'jwt_bearer', clientId: WORKLOAD_CLIENT_ID, assertionCommand: 'echo "no OIDC token: ACTIONS_ID_TOKEN_REQUEST_URL is unset" >&2; exit 3' },
      },
      enterprise: {
        url: fixture.mcpUrl,
        oauth: { grant: 'enterprise', clientId: ENTERPRISE_CLIENT.id, clientSecret: '${ENTERPRISE_SECRET}', idp: { issuer: fixture.idpIssuer, clientId: IDP_CLIENT_ID, idToken: '${ID_TOKEN}' } },
      },
      'no-assertion': { url: fixture.mcpUrl, oauth: { grant: 'jwt_bearer' } },
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('private_key_jwt: an ES256 key from ${VAR} and an RS256 key from a file (with its kid) get tokens; status names the grant and the authentication, never the key', async () => {
    const home = dataHome();
    const es = await toolrun(config, ['exec', 'keyed:echo', 'message=signed'], home, { CLIENT_KEY: CLIENT_KEYS.es256 });
    expect(es.exitCode, es.stderr).toBe(0);
    expect(es.stdout).toBe('signed');
    const rsa = await toolrun(config, ['exec', 'rsa:echo', 'message=rsa'], home);
    expect(rsa.exitCode, rsa.stderr).toBe(0);
    expect(rsa.stdout).toBe('rsa');
    const status = await toolrun(config, ['auth', 'status', 'keyed'], home);
    expect(status.stdout).toContain('grant client_credentials (client authentication private_key_jwt), bearer token');
    const json = JSON.parse((await toolrun(config, ['--json', 'auth', 'status', 'keyed'], home)).stdout);
    expect(json.servers[0]).toMatchObject({ grant: 'client_credentials', client_authentication: 'private_key_jwt', token_binding: 'bearer' });
    const stored = JSON.stringify(storedRecord(home, 'keyed'));
    expect(stored).not.toContain('PRIVATE KEY');
  });

  it('private_key_jwt: a privateKeyFile others can read (0644) is a warning naming the chmod, as ssh refuses such keys; 0600 is not', async () => {
    const open = await toolrun(config, ['exec', 'rsa-open:echo', 'message=open'], dataHome());
    expect(open.exitCode, open.stderr).toBe(0);
    expect(open.stdout).toBe('open');
    expect(open.stderr.split('\n').filter((line) => line.includes('open.pem'))).toEqual([
      `⚠ oauth.privateKeyFile of 'rsa-open' (${openKeyFile}) can be read by others (mode 0644), as ssh refuses for a key: chmod 600 ${openKeyFile}`,
    ]);
    const closed = await toolrun(config, ['exec', 'rsa:echo', 'message=closed'], dataHome());
    expect(closed.exitCode, closed.stderr).toBe(0);
    expect(closed.stderr).not.toContain('can be read by others');
  });

  it("an assertionCommand's stderr cut inside a JWT shows none of it (the cut word is left out)", async () => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${'Q'.repeat(400)}.c2lnbmF0dXJl`;
    const failed = await toolrun(config, ['exec', 'workload-long:echo', 'message=x'], dataHome(), { LONG_JWT: jwt });
    expect(failed.exitCode).toBe(4);
    expect(failure(failed.stderr)).toContain("oauth.assertionCommand of 'workload-long' exited with 3: … yyyy");
    expect(failed.stderr).not.toContain('QQQQ');
  });

  it('private_key_jwt: a value that is no key, and a key the authorization server does not know, each end in one line (exit 4) with no key printed', async () => {
    const notKey = await toolrun(config, ['exec', 'keyed:echo', 'message=x'], dataHome(), { CLIENT_KEY: 'not-a-key-0123456789' });
    expect(notKey.exitCode).toBe(4);
    expect(failure(notKey.stderr)).toMatch(/oauth\.privateKey of 'keyed' is not a PEM private key .* give a PKCS#8/);
    expect(notKey.stderr).not.toContain('not-a-key-0123456789');
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const requestsBefore = fixture.tokenRequests.client_credentials ?? 0;
    const refused = await toolrun(config, ['exec', 'keyed:echo', 'message=x'], dataHome(), { CLIENT_KEY: stranger });
    expect(refused.exitCode).toBe(4);
    // Refused once, and not asked again: one request, not a success.
    expect((fixture.tokenRequests.client_credentials ?? 0) - requestsBefore).toBe(1);
    expect(failure(refused.stderr)).toMatch(/the authorization server refused the client of 'keyed' \(invalid_client.* check oauth\.clientId and oauth\.privateKey/);
    expect(refused.stderr).not.toContain('PRIVATE KEY');
  });

  it('a 403 insufficient_scope gets a machine grant a token with the union of scopes, once (no browser, no loop)', async () => {
    const home = dataHome();
    const env = { CLIENT_KEY: CLIENT_KEYS.es256 };
    const admin = await toolrun(config, ['exec', 'keyed:admin_echo', 'message=step-up'], home, env);
    expect(admin.exitCode, admin.stderr).toBe(0);
    expect(admin.stdout).toBe('admin: step-up');
    expect(storedRecord(home, 'keyed').tokens.scope).toContain('mcp:admin');
    // A server that keeps refusing: one new token for that scope set, then one line (exit 4).
    fixture.refuseAdminAlways(true);
    try {
      const refused = await toolrun(config, ['exec', 'keyed:admin_echo', 'message=x'], dataHome(), env);
      expect(refused.exitCode).toBe(4);
      expect(failure(refused.stderr)).toContain("'keyed' refused the token for lack of scope 'mcp:admin' (HTTP 403 insufficient_scope), and a token with scopes 'mcp:admin' was already asked for");
    } finally {
      fixture.refuseAdminAlways(false);
    }
  });

  it('workload identity federation: the CI token from ${VAR}, a file or a command is the assertion of one JWT-bearer grant', async () => {
    const token = await workloadToken(fixture.issuer);
    const before = fixture.grants[JWT_BEARER] ?? 0;
    const home = dataHome();
    const fromVar = await toolrun(config, ['exec', 'workload:echo', 'message=wif'], home, { CI_OIDC_TOKEN: token });
    expect(fromVar.exitCode, fromVar.stderr).toBe(0);
    expect(fromVar.stdout).toBe('wif');
    // The stored token serves the next command: no second grant.
    expect((await toolrun(config, ['exec', 'workload:echo', 'message=again'], home, { CI_OIDC_TOKEN: token })).stdout).toBe('again');
    expect(fixture.grants[JWT_BEARER]).toBe(before + 1);
    // A file (relative: from the config's folder), read at each token request, as a projected token is.
    writeFileSync(join(dirname(config), 'ci-token'), `${token}\n`);
    const fromFile = await toolrun(config, ['exec', 'workload-file:echo', 'message=file'], dataHome());
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe('file');
    const fromCommand = await toolrun(config, ['exec', 'workload-cmd:echo', 'message=cmd'], dataHome(), { CI_OIDC_TOKEN: token });
    expect(fromCommand.exitCode, fromCommand.stderr).toBe(0);
    expect(fromCommand.stdout).toBe('cmd');
    const status = await toolrun(config, ['auth', 'status', 'workload'], home, { CI_OIDC_TOKEN: token });
    expect(status.stdout).toContain('grant jwt_bearer (client authentication none)');
    expect(status.stdout + status.stderr).not.toContain(token);
  });

  it('workload identity federation: an expired assertion, one for another audience and a failing command each end in one line (exit 4), with one token request at most', async () => {
    const expired = await workloadToken(fixture.issuer, -60);
    const before = fixture.grants[JWT_BEARER] ?? 0;
    // Every request the token endpoint got, refused ones too (fixture.grants counts only the tokens given).
    const requestsBefore = fixture.tokenRequests[JWT_BEARER] ?? 0;
    const sent = () => (fixture.tokenRequests[JWT_BEARER] ?? 0) - requestsBefore;
    const stale = await toolrun(config, ['exec', 'workload:echo', 'message=x'], dataHome(), { CI_OIDC_TOKEN: expired });
    expect(stale.exitCode).toBe(4);
    expect(failure(stale.stderr)).toMatch(/the assertion of 'workload' \(oauth\.assertion\) expired at .* ago\).* get a fresh one/);
    // Seen as expired before it is sent: no token request.
    expect(sent()).toBe(0);
    const elsewhere = await workloadToken('https://wrong.example');
    const wrong = await toolrun(config, ['exec', 'workload:echo', 'message=x'], dataHome(), { CI_OIDC_TOKEN: elsewhere });
    expect(wrong.exitCode).toBe(4);
    // A token for another audience is not sent at all: a server pointing elsewhere must not get a replayable credential.
    expect(failure(wrong.stderr)).toContain(`the assertion of 'workload' (oauth.assertion) is not for this authorization server; the assertion's audience is https://wrong.example`);
    expect(wrong.stderr).toContain('toolrun does not send it there');
    expect(wrong.stderr).not.toContain(elsewhere);
    expect(fixture.assertionsReceived).not.toContain(elsewhere);
    expect(sent()).toBe(0);
    // One the authorization server does not trust (signed by a key it does not know): its refusal, once.
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('https://ci.example')
      .setSubject('x')
      .setAudience(fixture.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const refused = await toolrun(config, ['exec', 'workload:echo', 'message=x'], dataHome(), { CI_OIDC_TOKEN: forged });
    expect(refused.exitCode).toBe(4);
    expect(failure(refused.stderr)).toContain(`the authorization server refused the JWT-bearer assertion of 'workload' (invalid_grant`);
    expect(fixture.grants[JWT_BEARER] ?? 0).toBe(before);
    // Sent once, refused, not retried.
    expect(fixture.assertionsReceived.filter((assertion) => assertion === forged)).toHaveLength(1);
    expect(sent()).toBe(1);
    const failing = await toolrun(config, ['exec', 'workload-fails:echo', 'message=x'], dataHome());
    expect(failing.exitCode).toBe(4);
    expect(failure(failing.stderr)).toContain("oauth.assertionCommand of 'workload-fails' exited with 3: no OIDC token: ACTIONS_ID_TOKEN_REQUEST_URL is unset");
    expect(sent()).toBe(1);
    const config2 = await toolrun(config, ['exec', 'no-assertion:echo', 'message=x'], dataHome());
    expect(config2.exitCode).toBe(3);
    expect(failure(config2.stderr)).toContain('mcpServers.no-assertion.oauth: grant "jwt_bearer" needs the workload\'s token: set assertion ("${VAR}"), assertionFile or assertionCommand');
  });

  it('enterprise-managed authorization: the ID token becomes an ID-JAG at the identity provider, then a token; an expired ID token is one line', async () => {
    const before = { exchange: fixture.grants['token-exchange'] ?? 0, bearer: fixture.grants[JWT_BEARER] ?? 0 };
    const home = dataHome();
    const exec = await toolrun(config, ['exec', 'enterprise:echo', 'message=sso'], home, { ID_TOKEN: await idToken(fixture.idpIssuer), ENTERPRISE_SECRET: ENTERPRISE_CLIENT.secret });
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout).toBe('sso');
    expect(fixture.grants['token-exchange']).toBe(before.exchange + 1);
    expect(fixture.grants[JWT_BEARER]).toBe(before.bearer + 1);
    expect(storedRecord(home, 'enterprise')).toMatchObject({ grant: 'enterprise', clientAuthentication: 'client_secret_basic' });
    const expired = await toolrun(config, ['exec', 'enterprise:echo', 'message=x'], dataHome(), { ID_TOKEN: await idToken(fixture.idpIssuer, -30), ENTERPRISE_SECRET: ENTERPRISE_CLIENT.secret });
    expect(expired.exitCode).toBe(4);
    expect(failure(expired.stderr)).toMatch(/the ID token of 'enterprise' \(oauth\.idp\.idToken\) expired at/);
  });

  it('mcp doctor traces each request of the grant (the identity provider, the token endpoint) and never shows a credential', async () => {
    const id = await idToken(fixture.idpIssuer);
    const doctor = await toolrun(config, ['mcp', 'doctor', 'enterprise'], dataHome(), { ID_TOKEN: id, ENTERPRISE_SECRET: ENTERPRISE_CLIENT.secret });
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain('grant enterprise (ID token from oauth.idp.idToken, exchanged at');
    expect(doctor.stdout).toMatch(/identity-provider: GET .*\/idp\/.well-known\/openid-configuration → 200/);
    expect(doctor.stdout).toMatch(/identity-provider: POST .*\/idp\/token → grant token-exchange with the ID token → 200 · token_type N_A, issued id-jag/);
    expect(doctor.stdout).toMatch(/token: POST .*\/token → grant jwt-bearer with an assertion, the client secret \(Basic\) → 200 · token_type Bearer/);
    expect(doctor.stdout).not.toContain(id);
    expect(doctor.stdout).not.toContain(ENTERPRISE_CLIENT.secret);
  });

  it('auth login of a server that lets initialize through reads the scope from the challenge of what follows', async () => {
    const open = await startOAuthFixture({ openInitialize: true });
    try {
      const openConfig = writeConfig({ open: { url: open.mcpUrl } });
      const home = dataHome();
      const login = await toolrun(openConfig, ['auth', 'login', 'open'], home, { BROWSER });
      expect(login.exitCode, login.stderr).toBe(0);
      expect(storedRecord(home, 'open').tokens.scope).toBe('mcp:write');
      expect((await toolrun(openConfig, ['exec', 'open:echo', 'message=scoped'], home)).stdout).toBe('scoped');
    } finally {
      await open.close();
    }
  });

  it('auth login of a 2026-07-28-only server that refuses initialize (400) reads the scope from the challenge of server/discover', async () => {
    // As the official suite's auth/scope-step-up at 2026-07-28: initialize gets through to a server that refuses it.
    const modern = await startOAuthFixture({ era: 'modern', openInitialize: true });
    try {
      const modernConfig = writeConfig({ modern: { url: modern.mcpUrl } });
      const home = dataHome();
      const login = await toolrun(modernConfig, ['auth', 'login', 'modern'], home, { BROWSER });
      expect(login.exitCode, login.stderr).toBe(0);
      expect(login.stdout).toContain('scopes mcp:write,');
      expect(modern.mcpMethods.slice(0, 2)).toEqual(['initialize', 'server/discover']);
      expect(storedRecord(home, 'modern').tokens.scope).toBe('mcp:write');
      const exec = await toolrun(modernConfig, ['exec', 'modern:echo', 'message=scoped'], home);
      expect(exec.exitCode, exec.stderr).toBe(0);
      expect(exec.stdout).toBe('scoped');
    } finally {
      await modern.close();
    }
  });

  it('auth login of an entry pinned to 2026-07-28 sends no initialize: server/discover, then a stateless tools/list, whose challenge names the scope', async () => {
    const modern = await startOAuthFixture({ era: 'modern', openInitialize: true, openDiscover: true });
    try {
      const modernConfig = writeConfig({ pinned: { url: modern.mcpUrl, protocol: '2026-07-28' } });
      const home = dataHome();
      const login = await toolrun(modernConfig, ['auth', 'login', 'pinned'], home, { BROWSER });
      expect(login.exitCode, login.stderr).toBe(0);
      expect(modern.mcpMethods).not.toContain('initialize');
      expect(modern.mcpMethods.slice(0, 2)).toEqual(['server/discover', 'tools/list']);
      expect(storedRecord(home, 'pinned').tokens.scope).toBe('mcp:write');
      expect((await toolrun(modernConfig, ['exec', 'pinned:echo', 'message=pinned'], home)).stdout).toBe('pinned');
    } finally {
      await modern.close();
    }
  });
});

describe('DPoP', () => {
  let fixture: OAuthFixture;
  let config: string;
  beforeAll(async () => {
    fixture = await startOAuthFixture({ dpop: 'on' });
    config = writeConfig({
      ci: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } },
      browser: { url: fixture.mcpUrl },
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('client_credentials against a server that takes DPoP: a bound token, a fresh proof per request, the key kept with the token (0600)', async () => {
    const home = dataHome();
    const env = { CI_SECRET: CI_CLIENT.secret };
    const first = await toolrun(config, ['exec', 'ci:echo', 'message=bound'], home, env);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe('bound');
    const grants = fixture.grants.client_credentials;
    expect((await toolrun(config, ['exec', 'ci:echo', 'message=again'], home, env)).stdout).toBe('again');
    expect(fixture.grants.client_credentials).toBe(grants);
    expect(new Set(fixture.dpopSeen.schemes)).toEqual(new Set(['DPoP']));
    const record = storedRecord(home, 'ci');
    expect(record.tokens.token_type).toBe('DPoP');
    expect(record.dpop.privateJwk.kty).toBe('EC');
    const status = await toolrun(config, ['auth', 'status', 'ci'], home, env);
    expect(status.stdout).toMatch(/DPoP-bound token \(key thumbprint [\w-]{43}\)/);
    expect(status.stdout).not.toContain(record.dpop.privateJwk.d);
  });

  it('a same-origin redirect gets a proof of its own (the proof names its URL)', async () => {
    const moved = writeConfig({ moved: { url: `${fixture.mcpUrl}/`, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } } });
    const home = dataHome();
    const exec = await toolrun(moved, ['exec', 'moved:echo', 'message=moved'], home, { CI_SECRET: CI_CLIENT.secret });
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout).toBe('moved');
    expect(storedRecord(home, 'moved').tokens.token_type).toBe('DPoP');
  });

  it('a browser login binds its tokens too, and exec presents them with proofs', async () => {
    const home = dataHome();
    const login = await toolrun(config, ['auth', 'login', 'browser'], home, { BROWSER });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(storedRecord(home, 'browser').tokens.token_type).toBe('DPoP');
    const exec = await toolrun(config, ['exec', 'browser:echo', 'message=person'], home);
    expect(exec.exitCode, exec.stderr).toBe(0);
    expect(exec.stdout).toBe('person');
    // Doctor's auth step names the grant and the binding of what is stored.
    const doctor = await toolrun(config, ['mcp', 'doctor', 'browser'], home);
    expect(doctor.stdout).toMatch(/token stored \(issuer .*grant authorization_code \(client authentication none\), DPoP-bound\)/);
    // An expired token is refreshed with a proof of the same key (a public client's refresh token is bound too: RFC 9449 §5).
    const path = join(
      home,
      'toolrun',
      'auth',
      readdirSync(join(home, 'toolrun', 'auth')).find((file) => file.startsWith('browser-') && file.endsWith('.json'))!,
    );
    const record = JSON.parse(readFileSync(path, 'utf8'));
    const refreshes = fixture.grants.refresh_token ?? 0;
    writeFileSync(path, JSON.stringify({ ...record, tokens: { ...record.tokens, expires_at: Date.now() - 1000 } }), { mode: 0o600 });
    const refreshed = await toolrun(config, ['exec', 'browser:echo', 'message=refreshed'], home);
    expect(refreshed.exitCode, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toBe('refreshed');
    expect(fixture.grants.refresh_token).toBe(refreshes + 1);
    expect(storedRecord(home, 'browser').tokens).toMatchObject({ token_type: 'DPoP' });
  });

  it('a DPoP-bound token sent without a proof (a header copied by hand) is refused in one line, exit 4, the token not printed', async () => {
    const home = dataHome();
    await toolrun(config, ['exec', 'ci:echo', 'message=x'], home, { CI_SECRET: CI_CLIENT.secret });
    const token = storedRecord(home, 'ci').tokens.access_token as string;
    const copied = writeConfig({ copied: { url: fixture.mcpUrl, headers: { Authorization: `Bearer ${token}` } } });
    const result = await toolrun(copied, ['exec', 'copied:echo', 'message=x'], home);
    expect(result.exitCode).toBe(4);
    expect(failure(result.stderr)).toContain('401');
    expect(result.stderr).not.toContain(token);
  });
});

describe('DPoP in the 2026-07-28 era', () => {
  it('a server/discover server behind DPoP: the same bound token and proofs', async () => {
    const fixture = await startOAuthFixture({ dpop: 'on', era: 'modern' });
    try {
      const config = writeConfig({ ci: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } } });
      const home = dataHome();
      const exec = await toolrun(config, ['exec', 'ci:echo', 'message=modern'], home, { CI_SECRET: CI_CLIENT.secret });
      expect(exec.exitCode, exec.stderr).toBe(0);
      expect(exec.stdout).toBe('modern');
      expect(storedRecord(home, 'ci').tokens.token_type).toBe('DPoP');
      expect(new Set(fixture.dpopSeen.schemes)).toEqual(new Set(['DPoP']));
    } finally {
      await fixture.close();
    }
  });
});

describe('DPoP nonces', () => {
  it('nonces asked for by the authorization server and the MCP server are sent once each', async () => {
    const fixture = await startOAuthFixture({ dpop: 'nonce' });
    try {
      const config = writeConfig({ ci: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } } });
      const exec = await toolrun(config, ['exec', 'ci:echo', 'message=nonce'], dataHome(), { CI_SECRET: CI_CLIENT.secret });
      expect(exec.exitCode, exec.stderr).toBe(0);
      expect(exec.stdout).toBe('nonce');
      expect(fixture.dpopSeen.nonceChallenges).toBe(1);
    } finally {
      await fixture.close();
    }
  });

  it('a server that asks for a new nonce at every request: one retry, then one line (exit 4)', async () => {
    const fixture = await startOAuthFixture({ dpop: 'nonce-loop' });
    try {
      const config = writeConfig({ ci: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: CI_CLIENT.id, clientSecret: '${CI_SECRET}' } } });
      const exec = await toolrun(config, ['exec', 'ci:echo', 'message=x'], dataHome(), { CI_SECRET: CI_CLIENT.secret });
      expect(exec.exitCode).toBe(4);
      expect(failure(exec.stderr)).toContain('answered use_dpop_nonce again to a DPoP proof carrying the nonce it had just given (RFC 9449 §9): toolrun stopped after one retry');
      expect(fixture.dpopSeen.nonceChallenges).toBe(2);
    } finally {
      await fixture.close();
    }
  });

  it('DPoP turned off for a client the authorization server binds: its refusal in one line (exit 4)', async () => {
    const fixture = await startOAuthFixture({ dpop: 'required' });
    try {
      const config = writeConfig({ keyed: { url: fixture.mcpUrl, oauth: { grant: 'client_credentials', clientId: KEY_CLIENT_ID, privateKey: '${CLIENT_KEY}', dpop: false } } });
      const exec = await toolrun(config, ['exec', 'keyed:echo', 'message=x'], dataHome(), { CLIENT_KEY: CLIENT_KEYS.es256 });
      expect(exec.exitCode).toBe(4);
      expect(failure(exec.stderr)).toMatch(/getting an OAuth token for 'keyed' \(grant client_credentials\) failed: invalid_grant.*DPoP was not used \(oauth\.dpop is false\)/);
    } finally {
      await fixture.close();
    }
  });
});
