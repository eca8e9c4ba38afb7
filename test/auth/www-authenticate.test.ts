import { describe, expect, it } from 'vitest';
import { parseTokenChallenge } from '../../src/auth/www-authenticate.js';

describe('parseTokenChallenge', () => {
  it('reads a Bearer challenge, a DPoP one, and both offered at once (params of both, the first winning)', () => {
    expect(parseTokenChallenge('Bearer resource_metadata="https://a.example/prm", scope="a b"')).toEqual({
      scheme: 'bearer',
      params: { resource_metadata: 'https://a.example/prm', scope: 'a b' },
      offersDpop: false,
    });
    expect(parseTokenChallenge('DPoP error="use_dpop_nonce", error_description="x \\"y\\""')).toEqual({
      scheme: 'dpop',
      params: { error: 'use_dpop_nonce', error_description: 'x "y"' },
      offersDpop: true,
    });
    expect(parseTokenChallenge('DPoP algs="ES256", Bearer resource_metadata="https://a.example/prm", scope="a b"')).toEqual({
      scheme: 'dpop',
      params: { algs: 'ES256', resource_metadata: 'https://a.example/prm', scope: 'a b' },
      offersDpop: true,
    });
    expect(parseTokenChallenge('Basic realm="x", Bearer error=invalid_token')).toEqual({ scheme: 'bearer', params: { error: 'invalid_token' }, offersDpop: false });
    expect(parseTokenChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseTokenChallenge(null)).toBeUndefined();
  });
});
