import { describe, expect, it } from 'vitest';
import { codeOfCallback } from '../../src/auth/check-callback.js';

describe('codeOfCallback: the redirect is checked before its code is used', () => {
  const metadata = { issuer: 'http://localhost:4444', authorization_endpoint: 'x', token_endpoint: 'y', response_types_supported: ['code'] };
  const redirect = (query: string) => new URL(`http://127.0.0.1:9/callback?${query}`);

  it('takes the code when state and iss are the ones expected', () => {
    expect(codeOfCallback(redirect('code=abc&state=s1&iss=http%3A%2F%2Flocalhost%3A4444'), 's1', metadata)).toBe('abc');
  });

  it('compares iss as a string (RFC 9207 §2.4): a trailing-slash or case variant of the issuer is refused', () => {
    for (const iss of ['http://localhost:4444/', 'HTTP://localhost:4444', 'http://localhost:4444:80'])
      expect(() => codeOfCallback(redirect(`code=abc&state=s1&iss=${encodeURIComponent(iss)}`), 's1', metadata)).toThrow(`the redirect's iss is ${iss}, not http://localhost:4444`);
  });

  it('refuses a missing iss when the metadata says one is sent, and a state it did not send', () => {
    expect(() => codeOfCallback(redirect('code=abc&state=s1'), 's1', { ...metadata, authorization_response_iss_parameter_supported: true })).toThrow('the redirect has no iss');
    expect(() => codeOfCallback(redirect('code=abc&state=other'), 's1', metadata)).toThrow("the redirect's state is not the one this login sent");
  });
});
