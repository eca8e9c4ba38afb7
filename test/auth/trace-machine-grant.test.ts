import { describe, expect, it } from 'vitest';
import { machineGrantProblem } from '../../src/auth/trace-machine-grant.js';

describe('machineGrantProblem', () => {
  const metadata = { issuer: 'https://as.example', token_endpoint: 'https://as.example/token' };
  it('a token endpoint and the grant listed (or no list) is sound; PKCE and registration are not asked for', () => {
    expect(machineGrantProblem(metadata, 'jwt_bearer')).toBeUndefined();
    expect(machineGrantProblem({ ...metadata, grant_types_supported: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] }, 'enterprise')).toBeUndefined();
    expect(machineGrantProblem({ ...metadata, grant_types_supported: ['client_credentials'] }, 'client_credentials')).toBeUndefined();
  });
  it('names a missing token endpoint, and a grant the metadata does not list', () => {
    expect(machineGrantProblem({ issuer: 'https://as.example' }, 'client_credentials')?.rule.id).toBe('endpoints-missing');
    const problem = machineGrantProblem({ ...metadata, grant_types_supported: ['authorization_code', 'refresh_token'] }, 'jwt_bearer');
    expect(problem?.rule.id).toBe('grant-not-supported');
    expect(problem?.rule.text).toContain('grant_types_supported lists authorization_code, refresh_token, not urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(problem?.fix).toContain('enable the urn:ietf:params:oauth:grant-type:jwt-bearer grant');
  });
});
