import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrokenAuthServer, startSessionHttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

interface Step {
  id: string;
  status: string;
  finding: string;
  details: string[];
  fix?: string;
  data: { outcome?: string; rule?: { id: string; text: string } | null; issuer?: string | null; stages?: Array<{ stage: string; url: string; status: number | null; said: string; ms: number }> };
}

// Issue #21 point 5 (SPEC §14): doctor's auth step traces the authorization chain and names the rule broken.
describe('mcp doctor: the auth step of a remote server', () => {
  let auth: HttpFixture;
  let plain: HttpFixture;
  let record: string;
  let config: string;
  const variants = [
    'sound',
    'oidc-only',
    'well-known-only',
    'no-resource-metadata',
    'no-prm',
    'prm-not-json',
    'resource-mismatch',
    'no-authorization-servers',
    'no-as-metadata',
    'issuer-mismatch',
    'no-s256',
    'no-registration',
    'registration-refused',
    'unknown-redirect',
    'invalid-request',
    'token-500',
  ];
  beforeAll(async () => {
    record = join(tempDir(), 'requests.jsonl');
    writeFileSync(record, '');
    [auth, plain] = await Promise.all([startBrokenAuthServer({ RECORD: record }), startSessionHttpServer()]);
    const servers = Object.fromEntries(variants.map((variant) => [variant, { url: `${auth.url}/${variant}/mcp` }]));
    config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { ...servers, plain: { url: plain.url }, local: { command: process.execPath, args: ['-e', ''] } } });
  });
  afterAll(async () => {
    await Promise.all([auth?.stop(), plain?.stop()]);
  });

  const doctor = async (server: string, ...extra: string[]) => {
    const json = await runInProcess(['--json', '--config', config, 'mcp', 'doctor', server, ...extra]);
    const human = await runInProcess(['--config', config, 'mcp', 'doctor', server, ...extra]);
    const steps = JSON.parse(json.stdout).steps as Step[];
    return { json, human, steps, step: steps.find((step) => step.id === 'auth')! };
  };

  // Each broken variant: the rule's id, and the exact line doctor prints (the fixture's origin is ORIGIN).
  const broken: Array<[string, string, string, string[]?]> = [
    [
      'no-resource-metadata',
      'no-resource-metadata',
      'resource-metadata: the 401 names no resource_metadata in WWW-Authenticate, and none of ORIGIN/.well-known/oauth-protected-resource/no-resource-metadata/mcp (404), ORIGIN/.well-known/oauth-protected-resource (404) serves protected resource metadata (nor is there authorization server metadata at ORIGIN/.well-known/oauth-authorization-server for the 2025-03-26 fallback: 404) (RFC 9728; MCP authorization: servers MUST name resource_metadata in WWW-Authenticate or serve it at a well-known URL)',
    ],
    [
      'no-prm',
      'prm-missing',
      'resource-metadata: the resource_metadata URL ORIGIN/no-prm/prm-gone answered 404 (RFC 9728 §5.1; MCP authorization: clients use the resource_metadata URL when present)',
    ],
    [
      'prm-not-json',
      'prm-not-json',
      'resource-metadata: the protected resource metadata at ORIGIN/.well-known/oauth-protected-resource/prm-not-json/mcp is not a JSON object (text/html) (RFC 9728 §3.2: a JSON object)',
    ],
    [
      'resource-mismatch',
      'prm-resource-mismatch',
      "resource-metadata: the metadata's resource https://other.example/mcp is not the server's URL ORIGIN/resource-mismatch/mcp (RFC 9728 §3.3: clients MUST NOT use metadata for another resource)",
    ],
    [
      'no-authorization-servers',
      'no-authorization-servers',
      'resource-metadata: the protected resource metadata lists no authorization server (authorization_servers) (MCP authorization: the metadata MUST include at least one authorization server)',
    ],
    [
      'no-as-metadata',
      'as-metadata-missing',
      'authorization-server-metadata: no authorization server metadata for ORIGIN/no-as-metadata/as at ORIGIN/.well-known/oauth-authorization-server/no-as-metadata/as (404), ORIGIN/.well-known/openid-configuration/no-as-metadata/as (404), ORIGIN/no-as-metadata/as/.well-known/openid-configuration (404) (MCP authorization: RFC 8414 or OpenID Connect Discovery, at the well-known URLs in order)',
    ],
    [
      'issuer-mismatch',
      'issuer-mismatch',
      "authorization-server-metadata: the metadata's issuer ORIGIN/issuer-mismatch/other-issuer is not the authorization server's identifier ORIGIN/issuer-mismatch/as (RFC 8414 §3.3; MCP authorization: the issuer MUST be identical, else clients MUST NOT use the metadata)",
    ],
    [
      'no-s256',
      'no-s256',
      'authorization-server-metadata: code_challenge_methods_supported lists plain, not S256 (MCP authorization: clients MUST refuse to proceed without PKCE S256 in code_challenge_methods_supported)',
    ],
    [
      'no-registration',
      'no-registration',
      'authorization-server-metadata: no way to get a client ID: the metadata has no registration_endpoint and no client_id_metadata_document_supported, and the entry has no oauth.clientId (MCP authorization: a client ID comes from pre-registration, a Client ID Metadata Document or dynamic registration)',
    ],
    [
      'registration-refused',
      'registration-refused',
      'registration: dynamic registration refused: 400 invalid_client_metadata: application_type native is not allowed (RFC 7591 §3.2.2; MCP authorization: native clients register with application_type "native" and loopback redirect URIs)',
      ['--auth-probe'],
    ],
    [
      'unknown-redirect',
      'redirect-uri-unknown',
      'authorization: the authorization endpoint does not know the redirect URI http://127.0.0.1:47999/callback, registered a moment before: 400 invalid_request: redirect_uri is not registered for this client (OAuth 2.1 §2.3.1: the exact redirect URI registered MUST be accepted)',
      ['--auth-probe'],
    ],
    [
      'invalid-request',
      'invalid-request-not-invalid-grant',
      'token: the token endpoint answered invalid_request to a well-formed request with an unknown code (code is invalid) (RFC 6749 §5.2: an invalid, expired or unknown code is invalid_grant, which is how clients know to log in again)',
      ['--auth-probe'],
    ],
    [
      'token-500',
      'token-endpoint-error',
      'token: the token endpoint answered HTTP 500 to a well-formed request with an unknown code (RFC 6749 §5.2: a refused code is a 400 with an OAuth error such as invalid_grant; a 5xx is the authorization server failing)',
      ['--auth-probe'],
    ],
  ];

  it.each(broken)('%s: exit 4, the rule named (%s), nothing connected', async (server, ruleId, line, extra = []) => {
    const { json, human, steps, step } = await doctor(server, ...extra);
    const expected = line.replaceAll('ORIGIN', auth.url);
    expect(json.exitCode).toBe(4);
    expect(human.exitCode).toBe(4);
    expect(step).toMatchObject({ status: 'fail', finding: expected, data: { outcome: 'broken', rule: { id: ruleId } } });
    expect(step.fix).toBeTruthy();
    expect(human.stdout.split('\n')).toContain(`✖ auth        ${expected}`);
    expect(human.stdout).toMatch(/^ {4}fix: /m);
    // One line per request: stage, method, URL, what came back, time.
    expect(step.details.length).toBe(step.data.stages!.length);
    for (const detail of step.details) expect(detail).toMatch(/^[a-z-]+: (GET|POST) http:\/\/127\.0\.0\.1:\d+\/\S* → .+ \(\d+ ms\)$/);
    expect(steps.map((candidate) => candidate.id)).toEqual(['config', 'auth', 'spawn', 'initialize', 'tools', 'stdout', 'stderr', 'latency', 'shutdown']);
    expect(steps.filter((candidate) => candidate.id !== 'config' && candidate.id !== 'auth').every((candidate) => candidate.status === 'skip')).toBe(true);
    expect(human.stdout).toMatch(/^Unreachable: 1 problem, 0 warnings/m);
  });

  it('a sound chain: ok, naming the issuer, each stage traced in order', async () => {
    const { step, human } = await doctor('sound');
    expect(step.status).toBe('ok');
    expect(step.finding).toBe(`authorization required: issuer ${auth.url}/sound/as · PKCE S256 · dynamic registration · scopes mcp:read · no stored token: toolrun auth login sound`);
    expect(step.data.stages!.map((stage) => [stage.stage, stage.status])).toEqual([
      ['challenge', 401],
      ['resource-metadata', 200],
      ['authorization-server-metadata', 200],
    ]);
    expect(step.data.stages![0]!.said).toBe(`401 · WWW-Authenticate: Bearer resource_metadata="${auth.url}/.well-known/oauth-protected-resource/sound/mcp", scope="mcp:read"`);
    expect(human.stdout).toContain(`✔ auth        authorization required: issuer ${auth.url}/sound/as`);
  });

  it('discovery follows the spec: the well-known PRM without resource_metadata, OIDC at the third URL', async () => {
    const wellKnown = (await doctor('well-known-only')).step;
    expect(wellKnown.status).toBe('ok');
    expect(wellKnown.data.stages!.map((stage) => stage.url)).toContain(`${auth.url}/.well-known/oauth-protected-resource/well-known-only/mcp`);
    const oidc = (await doctor('oidc-only')).step;
    expect(oidc.status).toBe('ok');
    expect(oidc.data.stages!.filter((stage) => stage.stage === 'authorization-server-metadata').map((stage) => [stage.url, stage.status])).toEqual([
      [`${auth.url}/.well-known/oauth-authorization-server/oidc-only/as`, 404],
      [`${auth.url}/.well-known/openid-configuration/oidc-only/as`, 404],
      [`${auth.url}/oidc-only/as/.well-known/openid-configuration`, 200],
    ]);
  });

  it('--auth-probe registers, tries the authorization endpoint and a made-up code; no credential is sent or printed', async () => {
    writeFileSync(record, '');
    const { step, json, human } = await doctor('sound', '--auth-probe');
    expect(step.status).toBe('ok');
    expect(step.finding).toContain('dynamic registration (probed)');
    expect(step.data.stages!.map((stage) => [stage.stage, stage.status])).toEqual([
      ['challenge', 401],
      ['resource-metadata', 200],
      ['authorization-server-metadata', 200],
      ['registration', 201],
      ['authorization', 200],
      ['token', 400],
    ]);
    expect(step.data.stages!.at(-1)!.said).toBe('400 · invalid_grant: unknown authorization code (a made-up code)');
    // The registration's client_secret is never shown; no request carried an Authorization header.
    for (const output of [json.stdout, json.stderr, human.stdout, human.stderr]) expect(output).not.toContain('fixture-secret-never-printed');
    const requests = readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { authorization: boolean });
    expect(requests.length).toBeGreaterThan(6);
    expect(requests.some((request) => request.authorization)).toBe(false);
  });

  it('without --auth-probe nothing is registered: the probe-only rules are not reached', async () => {
    writeFileSync(record, '');
    const { step } = await doctor('registration-refused');
    expect(step.status).toBe('ok');
    expect(step.data.stages!.map((stage) => stage.stage)).not.toContain('registration');
    expect(readFileSync(record, 'utf8')).not.toContain('/register');
  });

  it('a server without authorization: "no authorization required", and doctor goes on', async () => {
    const { step, steps, json } = await doctor('plain');
    expect(json.exitCode).toBe(0);
    expect(step).toMatchObject({ status: 'ok', finding: 'no authorization required (answered 400)', data: { outcome: 'none' } });
    expect(steps.map((candidate) => candidate.id).slice(0, 3)).toEqual(['config', 'auth', 'spawn']);
  });

  it('a stdio server has no auth step', async () => {
    const { json } = await doctor('local');
    expect((JSON.parse(json.stdout).steps as Step[]).map((step) => step.id)).not.toContain('auth');
  });

  it('mcp list --check shows the auth state of each remote server', async () => {
    const only = writeTempConfig({
      retry: { attempts: 1, baseDelayMs: 0 },
      mcpServers: { sound: { url: `${auth.url}/sound/mcp` }, nos256: { url: `${auth.url}/no-s256/mcp` }, plain: { url: plain.url }, local: { command: process.execPath, args: ['-e', ''] } },
    });
    const json = await runInProcess(['--json', '--config', only, 'mcp', 'list', '--check']);
    const rows = JSON.parse(json.stdout).servers as Array<{ name: string; auth?: unknown }>;
    expect(Object.fromEntries(rows.map((row) => [row.name, row.auth]))).toEqual({
      sound: { state: 'required', issuer: `${auth.url}/sound/as` },
      nos256: { state: 'broken', rule: 'no-s256' },
      plain: { state: 'none' },
      local: undefined,
    });
    const human = await runInProcess(['--config', only, 'mcp', 'list', '--check']);
    expect(human.stdout.split('\n')[0]).toMatch(/ AUTH +COMMAND \/ URL$/);
    expect(human.stdout).toMatch(/^nos256 .* broken: no-s256 +http:/m);
    expect(human.stdout).toMatch(/^sound .* required +http:/m);
    expect(human.stdout).toMatch(/^plain .* none +http:/m);
    expect(human.stdout).toMatch(/^local .* - +\S+/m);
  });
});
