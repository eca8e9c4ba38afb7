/**
 * What Gemini CLI keeps of its own environment for a stdio MCP server: it always sanitises it
 * (createTransport forces `enableEnvironmentVariableRedaction: true`), then adds `GEMINI_CLI=1` and
 * the entry's `env`, which is kept whole. Copied from google-gemini/gemini-cli@5411f11 (Aug 2026):
 * packages/core/src/services/environmentSanitization.ts (shouldRedactEnvironmentVariable, lists and
 * patterns verbatim) and packages/core/src/tools/mcp-client.ts (createTransport). The user's
 * `security.environmentVariableRedaction.allowed` / `blocked` lists are not read: a setting few have.
 */

const ALWAYS_ALLOWED = new Set([
  'PATH',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'SYSTEMDRIVE',
  'HOME',
  'LANG',
  'SHELL',
  'TMPDIR',
  'USER',
  'LOGNAME',
  'TERM',
  'COLORTERM',
  // The GitHub Action's own variables.
  'ADDITIONAL_CONTEXT',
  'AVAILABLE_LABELS',
  'BRANCH_NAME',
  'DESCRIPTION',
  'EVENT_NAME',
  'GITHUB_ENV',
  'IS_PULL_REQUEST',
  'ISSUES_TO_TRIAGE',
  'ISSUE_BODY',
  'ISSUE_NUMBER',
  'ISSUE_TITLE',
  'PULL_REQUEST_NUMBER',
  'REPOSITORY',
  'TITLE',
  'TRIGGERING_ACTOR',
]);

const NEVER_ALLOWED = new Set([
  'CLIENT_ID',
  'DB_URI',
  'CONNECTION_STRING',
  'AWS_DEFAULT_REGION',
  'AZURE_CLIENT_ID',
  'AZURE_TENANT_ID',
  'SLACK_WEBHOOK_URL',
  'TWILIO_ACCOUNT_SID',
  'DATABASE_URL',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_ACCOUNT',
  'FIREBASE_PROJECT_ID',
]);

const SECRET_NAME = [/TOKEN/i, /SECRET/i, /PASSWORD/i, /PASSWD/i, /KEY/i, /AUTH/i, /CREDENTIAL/i, /CREDS/i, /PRIVATE/i, /CERT/i];

const SECRET_VALUE = [
  /-----BEGIN (RSA|OPENSSH|EC|PGP) PRIVATE KEY-----/i,
  /-----BEGIN CERTIFICATE-----/i,
  /(https?|ftp|smtp):\/\/[^:\s]{1,1024}:[^@\s]{1,1024}@/i,
  /(ghp|gho|ghu|ghs|ghr|github_pat)_[a-zA-Z0-9_]{36,}/i,
  /AIzaSy[a-zA-Z0-9_\\-]{33}/i,
  /AKIA[A-Z0-9]{16}/i,
  /eyJ[a-zA-Z0-9_-]{0,10240}\.[a-zA-Z0-9_-]{0,10240}\.[a-zA-Z0-9_-]{0,10240}/i,
  /(s|r)k_(live|test)_[0-9a-zA-Z]{24}/i,
  /xox[abpr]-[a-zA-Z0-9-]+/i,
];

/**
 * Whether Gemini CLI drops this variable before starting a server, in its order: GEMINI_CLI_* kept; a
 * value that looks like a key dropped; GIT_CONFIG_* kept; the always-allowed kept; the never-allowed
 * dropped; in strict mode (GitHub: GITHUB_SHA set, or SURFACE=Github) everything else dropped; else a
 * name that looks secret dropped.
 */
export function geminiDrops(name: string, value: string, strict: boolean): boolean {
  const key = name.toUpperCase();
  if (key.startsWith('GEMINI_CLI_')) return false;
  if (SECRET_VALUE.some((pattern) => pattern.test(value))) return true;
  if (key.startsWith('GIT_CONFIG_')) return false;
  if (ALWAYS_ALLOWED.has(key)) return false;
  if (NEVER_ALLOWED.has(key)) return true;
  if (strict) return true;
  return SECRET_NAME.some((pattern) => pattern.test(key));
}

/** The caller's environment as Gemini CLI passes it on (before the entry's env), with its GEMINI_CLI=1 mark. */
export function geminiEnvironment(callerEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const strict = Boolean(callerEnv.GITHUB_SHA) || callerEnv.SURFACE === 'Github';
  const kept: NodeJS.ProcessEnv = { GEMINI_CLI: '1' };
  for (const [name, value] of Object.entries(callerEnv)) if (value !== undefined && !geminiDrops(name, value, strict)) kept[name] = value;
  return kept;
}
