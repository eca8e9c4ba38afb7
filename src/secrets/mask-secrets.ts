/**
 * The one place that decides what a secret looks like (SPEC §8). Every output path (stderr lines,
 * stdout reports, `--json` documents, error messages, saved captures' metadata) passes its text
 * through `maskSecrets`; structured config (env, headers, args) goes through the helpers below,
 * which use the same rules plus what a name or a preceding flag says.
 */

import { perRunState } from '../run-environment.js';

export const MASK = '***';

/** Names whose values are secret: env vars, headers, query parameters, `--flags`. */
const SECRET_NAME = /(token|secret|assertion|passw(or)?d|pwd|api[-_]?key|apikey|access[-_]?key|private[-_]?key|auth|credential|session|cookie|signature)/i;
/** Query parameters: the names above, plus the short ones (`key`, `sig`) that are too common as env names. */
const SECRET_QUERY_NAME = /^(?:.*(token|secret|assertion|passw(or)?d|pwd|api[-_]?key|apikey|auth|credential|session|signature)|key|sig|code|pass)$/i;

const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:'"]*):([^\s/?#@'"]+)@/gi;
const QUERY_PARAMETER = /([?&;])([\w.%-]+)=([^&#\s"'<>]+)/g;
const SECRET_FLAG = /(^|[\s'"=(,[])(--?[\w-]*?(?:token|secret|passw(?:or)?d|api[-_]?key|apikey|access[-_]?key|private[-_]?key|auth|credential)[\w-]*)(=|\s+)(?!-)([^\s'",)\]]+)/gi;
// A credential (token68), not a challenge's auth-params: `Bearer resource_metadata="…"` (RFC 6750 §3) is no secret.
/**
 * `OPENAI_API_KEY=sk-…` in free text (a program's error, an env dump): an environment variable whose
 * name says secret. Not a placeholder in advice (`export TOKEN=...`, `TOKEN=$TOKEN`, `TOKEN=<value>`).
 */
const SECRET_ASSIGNMENT = /\b([A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*)=(?![*.$<{])([^\s'"]+)/g;
const BEARER = /\b(Bearer|Basic|Token)\s+(?![\w.~+/-]+=(?:"|[^=\s,]))([A-Za-z0-9._~+/=-]{8,})/g;
/** Tokens recognisable by shape alone: OpenAI/Anthropic, GitHub, Slack, AWS access key ids, GitLab, JWTs. */
const TOKEN_SHAPE =
  /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{6,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprse]-[A-Za-z0-9-]{6,}|AKIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*)/g;

/** Literal values the config marked secret (by name, or a URL's password), masked wherever they show up. */
const knownSecretsOf = perRunState(() => new Set<string>());

/**
 * Remembers a value the config says is secret, so that a message quoting it (an SDK error echoing
 * a header, a fetch error echoing a URL) is masked too. Short values are skipped: masking every
 * "1" in a message would hide more than it protects.
 */
export function rememberSecret(value: string): void {
  if (value.length >= 4 && value !== MASK) knownSecretsOf().add(value);
}

/**
 * A `${VAR}` expanded from the environment: when the variable's name says secret (`GITHUB_TOKEN`),
 * its value is secret wherever the config put it (`"env": {"GH": "${GITHUB_TOKEN}"}`, an argument,
 * a URL's path), so it is remembered, as it is and as a URL would quote it.
 */
export function rememberExpandedVariable(name: string, value: string): void {
  if (!isSecretName(name)) return;
  rememberSecret(value);
  const encoded = encodeURIComponent(value);
  if (encoded !== value) rememberSecret(encoded);
}

/**
 * Only the values the config marked secret, for what a server itself wrote (its stderr is the
 * evidence, shown as it is, SPEC §8), but never with toolrun's own config secrets in it.
 */
export function maskKnownSecrets(text: string): string {
  let masked = text;
  for (const secret of knownSecretsOf()) if (masked.includes(secret)) masked = masked.split(secret).join(MASK);
  return masked;
}

/** Does this env var, header, query parameter or flag name say its value is secret? */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `text` with every secret toolrun can recognise replaced by `***`. Cheap enough for every line. */
export function maskSecrets(text: string): string {
  if (text.length === 0) return text;
  const masked = text
    .replace(URL_PASSWORD, (_match, scheme: string, user: string) => `${scheme}${user}:${MASK}@`)
    .replace(QUERY_PARAMETER, (match, separator: string, name: string, value: string) => (value !== MASK && SECRET_QUERY_NAME.test(safeDecode(name)) ? `${separator}${name}=${MASK}` : match))
    .replace(SECRET_FLAG, (_match, before: string, flag: string, joiner: string) => `${before}${flag}${joiner}${MASK}`)
    .replace(BEARER, (_match, scheme: string) => `${scheme} ${MASK}`)
    .replace(SECRET_ASSIGNMENT, (_match, name: string) => `${name}=${MASK}`)
    .replace(TOKEN_SHAPE, MASK);
  return maskKnownSecrets(masked);
}

/**
 * The start of `text`, at most `maxChars` characters with `ellipsis`, as it may be shown: masked,
 * then cut. Cut first, a secret across the cut leaves its start behind, which matches neither the
 * secret's value nor its shape any more (issue #31: 23 of a 32-character token were shown). Every
 * place that shortens text for a message or a report goes through here. `mask`: maskKnownSecrets for
 * a server's own stderr, which is evidence and otherwise shown as it is. Never half a surrogate pair.
 */
export function maskThenCut(text: string, maxChars: number, ellipsis = '', mask: (text: string) => string = maskSecrets): string {
  const masked = mask(text);
  if (masked.length <= maxChars) return masked;
  let end = Math.max(0, maxChars - ellipsis.length);
  if (end > 0 && /[\ud800-\udbff]/.test(masked[end - 1]!)) end--;
  return `${masked.slice(0, end)}${ellipsis}`;
}

/** An env var's or header's value: `***` when the name says secret, else the value with secrets inside masked. */
export function maskNamedValue(name: string, value: string): string {
  if (isSecretName(name)) return value === '' ? '(empty)' : MASK;
  return maskSecrets(value);
}

export function maskNamedValues(map: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, maskNamedValue(name, value)]));
}

/** Command-line arguments: the value after a secret-looking flag (`--token X`) is masked as well. */
export function maskArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1]! : '';
    if (/^--?[\w-]+$/.test(previous) && isSecretName(previous) && !arg.startsWith('-')) return MASK;
    // What `docker -e API_KEY=…`, `env TOKEN=…` and `mcp-remote --header 'X-API-Key: …'` pass on.
    const assignment = ASSIGNMENT_ARG.exec(arg) ?? HEADER_ARG.exec(arg);
    if (assignment && isSecretName(assignment[1]!)) return `${assignment[0].slice(0, assignment[0].length - assignment[2]!.length)}${MASK}`;
    return maskSecrets(arg);
  });
}

/** `NAME=value` (an environment assignment) and `Name: value` (an HTTP header), as whole arguments. */
const ASSIGNMENT_ARG = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/s;
const HEADER_ARG = /^([A-Za-z0-9-]+):\s*(.+)$/s;

/**
 * Every string inside a JSON-like value masked (objects and arrays copied, not changed), except
 * under the keys in `verbatim` (a tool's own result is what the user asked for, not toolrun's words).
 */
export function maskSecretsDeep(value: unknown, verbatim: ReadonlySet<string> = NO_KEYS, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => maskSecretsDeep(item, verbatim, depth + 1));
  if (!isPlainObject(value)) return value;
  // Null prototype: a "__proto__" key from a server's JSON stays a key, never becomes the prototype.
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) copy[key] = verbatim.has(key) ? item : maskSecretsDeep(item, verbatim, depth + 1);
  return copy;
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * Every string inside a JSON-like value with the values the config marked secret masked, and nothing
 * else: for what an upstream answers through `toolrun serve` (a tool's result is what the client
 * asked for, so a token-shaped string of its own stays; the config's own secrets never leave).
 */
export function maskKnownSecretsDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskKnownSecrets(value);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => maskKnownSecretsDeep(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) copy[maskKnownSecrets(key)] = maskKnownSecretsDeep(item, depth + 1);
  return copy;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
