import { sha256OfJson } from '../../lock/canonical-json.js';
import { isSecretName, maskSecretsDeep } from '../../secrets/mask-secrets.js';

/**
 * What identifies a model request in a cassette: the method, the URL's path after the provider's base
 * URL (`/chat/completions`, `/messages`: a cassette recorded against one endpoint, a proxy with a path
 * of its own or a local server, replays against any other) and the JSON body. No header ever takes
 * part: headers carry the key, and a cassette must not depend on (or hold) it.
 */
export interface CanonicalRequest {
  method: string;
  /** The URL's path after the base URL's (the whole path for a URL outside it), its query parameters sorted, the secret-looking ones left out. */
  path: string;
  /** The parsed JSON body without its volatile fields, secrets masked; a body that is not JSON as its text; null when empty. */
  body: unknown;
  /** The case's run (ModelFetchOptions.run) after the first; absent for the first, so a one-run case's keys name its request alone. */
  run?: number;
}

/**
 * Body fields that change between two otherwise identical requests, or only tag who sent them, and
 * never change what the model answers: left out of the key so a re-run with another user id still
 * replays. Sources: the OpenAI Chat Completions reference (https://platform.openai.com/docs/api-reference/chat/create:
 * `user`, `safety_identifier`, `prompt_cache_key`, `metadata`, `stream_options`) and the Anthropic
 * Messages reference (https://docs.anthropic.com/en/api/messages: `metadata.user_id`). `stream`
 * itself stays: a streamed answer and a whole one are recorded differently.
 */
export const VOLATILE_BODY_FIELDS: readonly string[] = ['user', 'safety_identifier', 'prompt_cache_key', 'metadata', 'stream_options'];

/** The method, URL and body text of what a provider passes to fetch (a URL and init, or a Request). */
export async function readFetchArguments(input: string | URL | Request, init?: RequestInit): Promise<{ method: string; url: string; bodyText: string }> {
  if (input instanceof Request) {
    const request = init ? new Request(input, init) : input;
    return { method: request.method, url: request.url, bodyText: await request.clone().text() };
  }
  const url = input instanceof URL ? input.href : input;
  const body = init?.body;
  // The AI SDK's providers send JSON as a string; anything else (a stream, form data) is read as a Request would read it.
  const bodyText = body === undefined || body === null ? '' : typeof body === 'string' ? body : await new Request(url, { method: 'POST', body }).text();
  return { method: (init?.method ?? 'GET').toUpperCase(), url, bodyText };
}

/** The canonical form of a request: what is compared, hashed and written beside the recorded answer. */
export function canonicalRequest(method: string, url: string, bodyText: string, baseUrl?: string): CanonicalRequest {
  return { method: method.toUpperCase(), path: canonicalPath(url, baseUrl), body: maskSecretsDeep(canonicalBody(bodyText)) };
}

/** The cassette key: hex sha256 of the canonical request's canonical JSON (keys sorted, no whitespace). */
export function requestKey(request: CanonicalRequest): string {
  return sha256OfJson(request);
}

function canonicalPath(url: string, baseUrl: string | undefined): string {
  // A relative URL (a test's `/v1/chat/completions`) is read against a placeholder host, which is then dropped.
  const parsed = new URL(url, 'http://cassette.invalid');
  const path = pathAfterBase(parsed, baseUrl);
  // `?key=` is how Google's REST API may take its key; the other names are the ones toolrun masks everywhere.
  const kept = [...parsed.searchParams].filter(([name]) => name !== 'key' && !isSecretName(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(kept).toString();
  return query === '' ? path : `${path}?${query}`;
}

/** The request's path with the base URL's path taken off the front, when the request is under the base URL. */
function pathAfterBase(request: URL, baseUrl: string | undefined): string {
  if (baseUrl === undefined) return request.pathname;
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return request.pathname;
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  if (request.origin !== base.origin || prefix === '' || !request.pathname.startsWith(`${prefix}/`)) return request.pathname;
  return request.pathname.slice(prefix.length);
}

function canonicalBody(bodyText: string): unknown {
  if (bodyText === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return bodyText;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed;
  const kept: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(parsed)) if (!VOLATILE_BODY_FIELDS.includes(name)) kept[name] = value;
  return kept;
}
