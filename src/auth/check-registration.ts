import { createHash, randomBytes } from 'node:crypto';
import { brokenRule, type BrokenRule } from './auth-rules.js';
import { oneLine, parseObject, parseUrl, type Tracer } from './auth-tracer.js';
import { isFailure } from './bounded-request.js';

export type RegistrationWay = 'pre-registered' | 'client-id-metadata-document' | 'dynamic-registration';

/**
 * The loopback redirect the probe registers. Nothing listens on it: the probe never completes a
 * login, it only sees whether the authorization server accepts the redirect it just registered.
 */
export const PROBE_REDIRECT_URI = 'http://127.0.0.1:47999/callback';

/**
 * How a client would get a client ID (MCP authorization, client registration: pre-registered, a
 * Client ID Metadata Document, dynamic registration), and with `probe`, whether the authorization
 * server really lets it through: a registration, an authorization request, a token request with a
 * made-up code (which must be refused with invalid_grant).
 */
export async function checkRegistration(
  tracer: Tracer,
  metadata: Record<string, unknown>,
  issuer: string,
  options: { clientId?: string; probe?: boolean; resource: string; scopes?: string[] },
): Promise<{ how: RegistrationWay } | BrokenRule> {
  const endpoint = typeof metadata.registration_endpoint === 'string' ? parseUrl(metadata.registration_endpoint) : undefined;
  const how: RegistrationWay | undefined = options.clientId
    ? 'pre-registered'
    : endpoint
      ? 'dynamic-registration'
      : metadata.client_id_metadata_document_supported === true
        ? 'client-id-metadata-document'
        : undefined;
  if (!how)
    return brokenRule(
      'no-registration',
      'no way to get a client ID: the metadata has no registration_endpoint and no client_id_metadata_document_supported, and the entry has no oauth.clientId',
      'register toolrun at the authorization server and put its client ID in the entry ("oauth": {"clientId": "…"}), or enable dynamic registration',
    );
  if (!options.probe || how === 'client-id-metadata-document') return { how };

  let clientId = options.clientId;
  if (!clientId) {
    const body = {
      client_name: 'toolrun mcp doctor (probe)',
      redirect_uris: [PROBE_REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      ...(options.scopes?.length ? { scope: options.scopes.join(' ') } : {}),
    };
    let registered: Record<string, unknown> | undefined;
    const answer = await tracer.request(
      'registration',
      endpoint!,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) },
      (reply) => {
        registered = parseObject(reply.text);
        // Never the body itself: a registration answer may carry a client_secret.
        if (reply.status >= 200 && reply.status < 300)
          return `${reply.status} · ${typeof registered?.client_id === 'string' ? 'client registered' : 'no client_id in the answer'} (application_type native, redirect ${PROBE_REDIRECT_URI})`;
        return `${reply.status} · ${describeOAuthError(registered)}`;
      },
    );
    if (isFailure(answer)) return brokenRule('registration-refused', `the registration endpoint gave no answer (${answer.error})`, 'make the registration endpoint answer');
    if (answer.status < 200 || answer.status >= 300 || typeof registered?.client_id !== 'string')
      return brokenRule(
        'registration-refused',
        `dynamic registration refused: ${answer.status} ${describeOAuthError(registered)}`,
        'accept RFC 7591 registrations from native clients: application_type "native", token_endpoint_auth_method "none", a loopback redirect URI on any port',
      );
    clientId = registered.client_id;
  }

  const verifier = randomBytes(32).toString('base64url');
  const authorize = parseUrl(metadata.authorization_endpoint)!;
  const query = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: PROBE_REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    resource: options.resource,
    ...(options.scopes?.length ? { scope: options.scopes.join(' ') } : {}),
  };
  for (const [key, value] of Object.entries(query)) authorize.searchParams.set(key, value);
  const authorization = await tracer.request('authorization', authorize, { method: 'GET', follow: false }, (reply) =>
    describeAuthorization(reply.status, reply.headers.get('location'), parseObject(reply.text)),
  );
  if (isFailure(authorization)) return brokenRule('authorization-refused', `the authorization endpoint gave no answer (${authorization.error})`, 'make the authorization endpoint answer');
  const location = authorization.headers.get('location');
  const back = location?.startsWith(PROBE_REDIRECT_URI) ? new URL(location) : undefined;
  const iss = back?.searchParams.get('iss');
  if (iss != null && iss !== issuer)
    return brokenRule('iss-mismatch', `the authorization response's iss ${oneLine(iss)} is not the issuer ${issuer}`, "send iss equal to the metadata's issuer in every authorization response");
  if (authorization.status >= 400) {
    const error = parseObject(authorization.text);
    const text = `${authorization.status} ${describeOAuthError(error)}`;
    if (/redirect/i.test(text))
      return brokenRule(
        'redirect-uri-unknown',
        `the authorization endpoint does not know the redirect URI ${PROBE_REDIRECT_URI}${options.clientId ? '' : ', registered a moment before'}: ${text}`,
        'accept the exact redirect URI registered; for loopback redirects (RFC 8252 §7.3), any port',
      );
    return brokenRule('authorization-refused', `the authorization endpoint refused a well-formed request: ${text}`, 'answer an authorization request from a registered client with a login page');
  }

  const token = parseUrl(metadata.token_endpoint)!;
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: 'toolrun-doctor-made-up-code',
    redirect_uri: PROBE_REDIRECT_URI,
    code_verifier: verifier,
    client_id: clientId,
    resource: options.resource,
  });
  let refusal: Record<string, unknown> | undefined;
  const answer = await tracer.request(
    'token',
    token,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() },
    (reply) => {
      refusal = parseObject(reply.text);
      // A 2xx here carries tokens: never shown.
      return reply.status >= 200 && reply.status < 300 ? `${reply.status} · tokens issued for a made-up code` : `${reply.status} · ${describeOAuthError(refusal)} (a made-up code)`;
    },
  );
  if (isFailure(answer)) return brokenRule('invalid-request-not-invalid-grant', `the token endpoint gave no answer (${answer.error})`, 'make the token endpoint answer');
  if (answer.status >= 200 && answer.status < 300)
    return brokenRule('bogus-code-accepted', 'the token endpoint issued tokens for a code it never issued', 'check the code, its client, redirect URI and PKCE verifier before issuing tokens');
  // A 5xx is no answer a client can act on: every login would end there, so it is a problem, not a refusal.
  if (answer.status >= 500)
    return brokenRule('token-endpoint-error', `the token endpoint answered HTTP ${answer.status} to a well-formed request with an unknown code`, 'fix the token endpoint (its logs say why it failed)');
  if (refusal?.error === 'invalid_request')
    return brokenRule(
      'invalid-request-not-invalid-grant',
      `the token endpoint answered invalid_request to a well-formed request with an unknown code${typeof refusal.error_description === 'string' ? ` (${oneLine(refusal.error_description)})` : ''}`,
      'answer an unknown, expired or used code with 400 {"error": "invalid_grant"}',
    );
  return { how };
}

function describeAuthorization(status: number, location: string | null, body: Record<string, unknown> | undefined): string {
  if (location?.startsWith(PROBE_REDIRECT_URI)) {
    const params = new URL(location).searchParams;
    return `${status} · back to the redirect URI with ${params.get('error') ? `error ${params.get('error')}` : 'a code'}${params.get('iss') ? `, iss ${params.get('iss')}` : ''}`;
  }
  if (status >= 300 && status < 400) return `${status} · to the login page ${parseUrl(location ?? '', new URL('http://x'))?.pathname ?? ''}`.trim();
  if (status >= 200 && status < 300) return `${status} · login page served`;
  return `${status} · ${describeOAuthError(body)}`;
}

/** An OAuth error answer in one line: `error: error_description`. */
function describeOAuthError(body: Record<string, unknown> | undefined): string {
  if (!body || typeof body.error !== 'string') return 'no OAuth error in the answer';
  return oneLine(`${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`);
}
