import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteServerSpec } from '../../src/config/resolve-server.js';
import { reportAuthStep } from '../../src/doctor/auth-step.js';
import type { DoctorStep } from '../../src/doctor/doctor-types.js';
import { startBrokenAuthServer, type HttpFixture } from '../helpers/http-fixture.js';

// The hook for the token store (SPEC §14): doctor says whether a token is stored, and connects only when it may help.
describe('reportAuthStep and the stored token', () => {
  let auth: HttpFixture;
  beforeAll(async () => {
    auth = await startBrokenAuthServer();
  });
  afterAll(async () => {
    await auth?.stop();
  });

  const run = async (storedToken: Parameters<typeof reportAuthStep>[1]['storedToken'], headers: Record<string, string> = {}) => {
    const steps: DoctorStep[] = [];
    const spec = { transport: 'http', name: 'sound', url: `${auth.url}/sound/mcp`, headers, connectTimeoutMs: 5000 } as unknown as RemoteServerSpec;
    const outcome = await reportAuthStep(spec, { server: 'sound', timeoutMs: 5000, storedToken }, (id, status, finding, extra = {}) =>
      steps.push({ id, status, finding, details: extra.details ?? [], fix: extra.fix, data: extra.data ?? {} }),
    );
    return { outcome, step: steps[0]! };
  };

  it('no token in the store: says toolrun auth login, and does not connect', async () => {
    const { outcome, step } = await run(null);
    expect(outcome.connect).toBe(false);
    expect(step.status).toBe('ok');
    expect(step.finding).toMatch(/ · no stored token: toolrun auth login sound$/);
  });

  it('a stored token: its issuer, scopes, expiry, grant and binding, never the token; connects', async () => {
    const { outcome, step } = await run({ issuer: `${auth.url}/sound/as`, scopes: ['mcp:read'], expiresAt: '2030-01-01T00:00:00Z', binding: 'bearer' });
    expect(outcome.connect).toBe(true);
    expect(step.finding).toMatch(/ · token stored \(issuer http:\/\/127\.0\.0\.1:\d+\/sound\/as, scopes mcp:read, expires 2030-01-01T00:00:00Z, bearer\)$/);
    const bound = await run({ issuer: `${auth.url}/sound/as`, scopes: [], grant: 'authorization_code', clientAuthentication: 'none', binding: 'dpop' });
    expect(bound.step.finding).toMatch(/ · token stored \(issuer http:\/\/127\.0\.0\.1:\d+\/sound\/as, grant authorization_code \(client authentication none\), DPoP-bound\)$/);
  });

  it('no store asked: connects and lets the server say', async () => {
    const { outcome, step } = await run(undefined);
    expect(outcome.connect).toBe(true);
    expect(step.finding).not.toContain('token');
  });

  it('an entry with its own Authorization header is not traced', async () => {
    const { outcome, step } = await run(null, { Authorization: 'Bearer abc' });
    expect(outcome).toEqual({ connect: true });
    expect(step).toMatchObject({ status: 'ok', finding: 'the entry sends its own Authorization header: no OAuth flow to trace', data: { outcome: 'static-credentials' } });
  });
});
