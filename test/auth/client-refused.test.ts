import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { checkAuthorizationUrl } from '../../src/auth/authorization-url.js';
import { configClientRefused, describeRefusal } from '../../src/auth/client-refused.js';

/**
 * Issue 48 item 8: an authorization server's error text is masked, then cut. Cut first, a client
 * assertion it echoed lost its last part, no longer looked like a JWT, and 190 characters of it showed.
 */
describe('OAuth error texts: masked before they are cut', () => {
  it("a token endpoint's refusal that echoes toolrun's client assertion shows none of it", async () => {
    const assertion = await new SignJWT({ jti: 'x'.repeat(300) })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('ci-client')
      .setSubject('ci-client')
      .setAudience('https://as.example/token')
      .sign(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    // As an authorization server words it: the assertion quoted after a short reason.
    const said = describeRefusal('invalid_client', new Error(`invalid_client: client_assertion ${assertion} not accepted`));
    expect(said).toContain('invalid_client: invalid_client: client_assertion ***');
    expect(said).not.toContain(assertion.slice(0, 20));
    const error = configClientRefused({ name: 'ci', oauth: { clientId: 'ci-client', privateKeyFile: 'k.pem' } }, said);
    expect(error.message).not.toContain(assertion.slice(0, 20));
  });

  it('an authorization URL refused for its scheme is shown masked, then cut', () => {
    const token = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiIsImRhdGEiOiJ${'A'.repeat(300)}.c2ln`;
    const url = new URL(`http://auth.example/authorize?state=${'s'.repeat(140)}&id_token_hint=${token}`);
    expect(() => checkAuthorizationUrl(url)).toThrow(/is not https/);
    try {
      checkAuthorizationUrl(url);
    } catch (error) {
      expect((error as Error).message).toContain('&id_token_hint=***');
      expect((error as Error).message).not.toContain('eyJ');
    }
  });
});
