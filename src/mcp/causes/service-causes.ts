import type { StderrRule } from './cause-types.js';

/**
 * The cause table's rows for what a server needs around it (cause-table.ts has the runtimes and
 * package runners): a variable it must be given, a database or Redis that refuses it. Permanent:
 * retrying cannot fix a wrong password or a missing variable.
 */
export const SERVICE_RULES: StderrRule[] = [
  {
    // "GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set" (GitHub), "BRAVE_API_KEY environment
    // variable is required" (Brave Search), "Missing environment variable: SLACK_BOT_TOKEN", "Error: X is
    // not set" (a bare "X is not set" is often a notice: NODE_ENV is not set, using production). It does not
    // end the attempt: a server may say so and go on with fewer tools; it is why one that exits failed.
    id: 'env-variable-missing',
    pattern:
      /\b([A-Z][A-Z0-9_]{2,}) (?:(?:environment|env) variables? (?:is |are )?(?:not set|required|missing|undefined)|(?<=[Ee]rror:? \1 )is (?:not set|required|missing))\b|[Mm]issing (?:required )?(?:environment|env) variables?:? ['"`]?([A-Z][A-Z0-9_]{2,})/,
    retryable: false,
    endsAttempt: false,
    reason: (m) => `the server needs the environment variable ${m[1] ?? m[2]}, which is not set`,
    fix: (m) => `set ${m[1] ?? m[2]} in the entry's "env" (or export it where the client starts)`,
    subject: (m) => m[1] ?? m[2],
  },
  {
    // PostgreSQL, whatever the client: libpq's "FATAL:  password authentication failed for user \"app\"", node-postgres without the FATAL.
    id: 'database-auth-failed',
    pattern: /password authentication failed for user "?([^"\s]+)"?|Access denied for user '([^']+)'@/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `the database refused the password for user '${m[1] ?? m[2]}' (password authentication failed)`,
    fix: () => "fix the user or password in the server's database URL (or its settings); they must match the database's",
  },
  {
    id: 'database-role-missing',
    pattern: /role "([^"]+)" does not exist/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `the database has no user (role) '${m[1]}'`,
    fix: (m) => `fix the user in the server's database URL, or create the role (CREATE ROLE "${m[1]}" LOGIN PASSWORD '…')`,
  },
  {
    id: 'database-missing',
    pattern: /database "([^"]+)" does not exist|Unknown database '([^']+)'/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `the database '${m[1] ?? m[2]}' does not exist`,
    fix: (m) => `fix the database name in the server's database URL, or create it (createdb ${m[1] ?? m[2]})`,
  },
  {
    // Redis: "NOAUTH Authentication required." (a password is needed), "WRONGPASS invalid username-password pair …",
    // and "ERR AUTH <password> called without any password configured for the default user" (one given, none needed).
    id: 'redis-auth',
    pattern: /\b(NOAUTH|WRONGPASS)\b|AUTH <password> called without any password configured/,
    retryable: false,
    endsAttempt: true,
    reason: (m) =>
      m[1] === 'NOAUTH'
        ? 'Redis requires a password and the server gave none (NOAUTH)'
        : m[1] === 'WRONGPASS'
          ? 'Redis refused the user or password the server gave (WRONGPASS)'
          : 'the server gave Redis a password, but this Redis has none configured (ERR AUTH … called without any password configured)',
    fix: (m) => (m[1] ? "fix the password (and user) given in the Redis URL, or in the server's settings" : 'remove the password from the Redis URL, or configure it on Redis (requirepass)'),
  },
];
