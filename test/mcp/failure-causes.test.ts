import { describe, expect, it } from 'vitest';
import { classifyAttempt } from '../../src/mcp/connect/classify-attempt.js';
import { retryDelayMs } from '../../src/mcp/connect/open-session.js';
import { causeInStderrLine, causesInText, mainCause } from '../../src/mcp/causes/failure-causes.js';
import { detectPackageRunner, packageNameOf } from '../../src/mcp/connect/package-runner.js';
import { isErrorLike, StderrLog } from '../../src/mcp/causes/stderr-log.js';

// Real stderr of each npm major (registry host replaced by a placeholder).
const NPM_STDERR = {
  'npm 9 E404': "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.example/nope-mcp - Not found\nnpm ERR! 404  'nope-mcp@*' is not in this registry.",
  'npm 10 E404': "npm error code E404\nnpm error 404 Not Found - GET https://registry.example/nope-mcp - Not found\nnpm error 404  'nope-mcp@*' is not in this registry.",
  'npm 11 E404':
    "npm error code E404\nnpm error 404 Not Found - GET https://registry.example/nope-mcp\nnpm error 404  The requested resource 'nope-mcp@*' could not be found or you do not have permission to access it.",
  'npm 9 no -y': 'npm ERR! canceled\n\nnpm ERR! A complete log of this run can be found in: /root/.npm/_logs/x.log',
  'npm 10 no -y': 'npm error npx canceled due to missing packages and no YES option: ["nope-mcp@1.0.0"]',
  'npm 11 no -y': 'npm error npx canceled due to missing packages and no YES option: ["nope-mcp@1.0.0"]\nnpm error A complete log of this run can be found in: /tmp/c/_logs/x.log',
  'npm 10 ETARGET': 'npm error code ETARGET\nnpm error notarget No matching version found for nope-mcp@99.',
  'npm 11 offline': 'npm error code ENOTFOUND\nnpm error syscall getaddrinfo\nnpm error errno ENOTFOUND',
};

describe('the stderr cause table', () => {
  it.each([
    ['npm 9 E404', 'npm-error-code', "npm could not find 'nope-mcp' in the registry (npm code E404)"],
    ['npm 10 E404', 'npm-error-code', "npm could not find 'nope-mcp' in the registry (npm code E404)"],
    ['npm 11 E404', 'npm-error-code', "npm could not find 'nope-mcp' in the registry (npm code E404)"],
    ['npm 9 no -y', 'npx-needs-yes', "npx wants to ask before installing 'nope-mcp', and cannot ask (stdin is not a terminal)"],
    ['npm 10 no -y', 'npx-needs-yes', "npx wants to ask before installing 'nope-mcp', and cannot ask (stdin is not a terminal)"],
    ['npm 11 no -y', 'npx-needs-yes', "npx wants to ask before installing 'nope-mcp', and cannot ask (stdin is not a terminal)"],
    ['npm 10 ETARGET', 'npm-error-code', "no version of 'nope-mcp' matches the one asked for (npm code ETARGET)"],
    ['npm 11 offline', 'npm-error-code', 'npm could not reach the registry (npm code ENOTFOUND)'],
  ] as const)('%s → %s, not retried', (sample, id, reason) => {
    const cause = mainCause(causesInText(NPM_STDERR[sample], { packageName: 'nope-mcp' }));
    expect(cause).toMatchObject({ id, reason, retryable: false, endsAttempt: true });
  });

  it('tells npx to take -y', () => {
    expect(causeInStderrLine(NPM_STDERR['npm 11 no -y'])?.fix).toBe('add "-y" to args, before the package name: "args": ["-y", …]');
  });

  it.each([
    ["Error: Cannot find module 'mqtt'", 'node-module-not-found', false, "install the server's dependencies (npm install in its folder): 'mqtt' is missing"],
    ["Error: Cannot find module '/srv/app/dist/index.js'", 'node-module-not-found', false, 'fix the path in "args" (relative paths start at "cwd"), or build the server first'],
    ["Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/app/index.js", 'node-package-not-found', false, "install the server's dependencies (npm install in its folder)"],
    ['[Redis Error] Error: connect ECONNREFUSED 127.0.0.1:6379', 'connection-refused', true, 'start the service the server needs at 127.0.0.1:6379, or point the server at the right address'],
    ['Error: connect ECONNREFUSED ::1:5432', 'connection-refused', true, 'start the service the server needs at ::1:5432, or point the server at the right address'],
    ['Error: listen EADDRINUSE: address already in use :::3001', 'address-in-use', false, 'stop the other process holding the port, or configure the server to use another port'],
    ['Error: getaddrinfo ENOTFOUND db.internal', 'host-not-found', false, "check the host name 'db.internal' in the server's settings, and the network"],
    ["ModuleNotFoundError: No module named 'mcp'", 'python-module-not-found', false, "install it in the server's environment (pip install mcp), or run the server with the right venv"],
    ['Traceback (most recent call last):', 'python-traceback', true, "read the last lines of the server's traceback: they name the exception"],
    ['Error: Unsupported protocol version: 2025-11-25', 'protocol-version-refused', false, 'use a server version that speaks protocol 2024-11-05 or later (toolrun speaks the 2025 family)'],
  ])('%s → %s', (line, id, retryable, fix) => {
    expect(causeInStderrLine(line)).toMatchObject({ id, retryable, fix });
  });

  // Real texts (issue #19 items 2 and 3): printed here by python 3.11, the docker CLI without a daemon,
  // pip offline, node-postgres and psql against PostgreSQL 15, server-redis against redis 7; uv's from its issue tracker.
  it.each([
    ['/usr/bin/python3: No module named toolrun_missing', 'python-run-module-missing', "Python has no module 'toolrun_missing' to run (python -m toolrun_missing: No module named toolrun_missing)"],
    [
      "/usr/bin/python3: can't open file '/srv/missing.py': [Errno 2] No such file or directory",
      'python-file-not-found',
      "the Python script '/srv/missing.py' does not exist (python: can't open file)",
    ],
    [
      "ImportError: cannot import name 'FastMCP' from 'mcp.server' (/venv/lib/python3.11/site-packages/mcp/server/__init__.py)",
      'python-import-error',
      "the installed Python module 'mcp.server' has no 'FastMCP' (ImportError): the server was written for another version of 'mcp'",
    ],
    [
      'ImportError: attempted relative import with no known parent package',
      'python-import-error',
      "the server's Python code failed to import: attempted relative import with no known parent package (ImportError)",
    ],
    [
      "ModuleNotFoundError: No module named 'mcp.server.fastmcp'. This is mcp 2.x, where FastMCP was renamed to MCPServer",
      'python-module-not-found',
      "the installed Python package 'mcp' has no module 'mcp.server.fastmcp' (ModuleNotFoundError): the server was written for another version of it",
    ],
    [
      'docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
      'docker-daemon-down',
      'Docker is not running: the docker command cannot reach its daemon at unix:///var/run/docker.sock',
    ],
    [
      'docker: permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/create": dial unix /var/run/docker.sock: connect: permission denied.',
      'docker-permission-denied',
      'the docker command may not use the Docker daemon (permission denied on its socket)',
    ],
    ['ERROR: No matching distribution found for mcp-server-nope', 'pip-no-distribution', "pip found no version of 'mcp-server-nope' to install (No matching distribution found)"],
    ['  × No solution found when resolving tool dependencies:', 'uv-no-solution', "uv could not resolve 'mcp-server-nope' (No solution found when resolving dependencies)"],
    [
      '  ╰─▶ Because mcp-server-nope was not found in the package registry and you require mcp-server-nope, we can conclude that your requirements are unsatisfiable.',
      'uv-package-not-found',
      "'mcp-server-nope' is not in the package registry (uv)",
    ],
    [
      'psql: error: connection to server at "127.0.0.1", port 5432 failed: FATAL:  password authentication failed for user "app"',
      'database-auth-failed',
      "the database refused the password for user 'app' (password authentication failed)",
    ],
    ['password authentication failed for user "toolrun"', 'database-auth-failed', "the database refused the password for user 'toolrun' (password authentication failed)"],
    [
      "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
      'database-auth-failed',
      "the database refused the password for user 'root' (password authentication failed)",
    ],
    ['FATAL:  role "nobody" does not exist', 'database-role-missing', "the database has no user (role) 'nobody'"],
    ['error: database "nope" does not exist', 'database-missing', "the database 'nope' does not exist"],
    ['[Redis Error] Error: NOAUTH Authentication required.', 'redis-auth', 'Redis requires a password and the server gave none (NOAUTH)'],
    ['[Redis Error] Error: WRONGPASS invalid username-password pair or user is disabled.', 'redis-auth', 'Redis refused the user or password the server gave (WRONGPASS)'],
    [
      '[Redis Error] Error: ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?',
      'redis-auth',
      'the server gave Redis a password, but this Redis has none configured (ERR AUTH … called without any password configured)',
    ],
  ])('%s → %s, permanent', (line, id, reason) => {
    expect(causeInStderrLine(line, { packageName: 'mcp-server-nope' })).toMatchObject({ id, reason, retryable: false, endsAttempt: true });
  });

  it.each([
    ['GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set', 'GITHUB_PERSONAL_ACCESS_TOKEN'],
    ['Error: BRAVE_API_KEY environment variable is required', 'BRAVE_API_KEY'],
    ['Missing environment variable: SLACK_BOT_TOKEN', 'SLACK_BOT_TOKEN'],
    ['Error: FIXTURE_API_TOKEN is not set', 'FIXTURE_API_TOKEN'],
  ])('%s → a missing variable, not retried, the attempt not ended (a server may go on with fewer tools)', (line, name) => {
    expect(causeInStderrLine(line)).toMatchObject({
      id: 'env-variable-missing',
      reason: `the server needs the environment variable ${name}, which is not set`,
      retryable: false,
      endsAttempt: false,
    });
  });

  it('a lowercase "is not set" is not a variable', () => {
    expect(causeInStderrLine('the timeout is not set, using 30 s')).toBeUndefined();
    expect(causeInStderrLine('NODE_ENV is not set, using production')).toBeUndefined();
  });

  it('a fix never holds a URL with a password placeholder (it would be masked as a secret)', () => {
    expect(causeInStderrLine('NOAUTH Authentication required.')?.fix).toBe("fix the password (and user) given in the Redis URL, or in the server's settings");
  });

  it('finds nothing in ordinary logs', () => {
    expect(causesInText('server started on stdio\nready\n[info] 3 tools registered')).toEqual([]);
  });

  it('prefers a permanent cause to a transient one as the reason', () => {
    const causes = causesInText('Error: connect ECONNREFUSED 127.0.0.1:6379\nnpm error code E404');
    expect(mainCause(causes)?.id).toBe('npm-error-code');
  });

  it('matches the start of a huge line only', () => {
    expect(causeInStderrLine(`${'x'.repeat(10_000)} ECONNREFUSED 127.0.0.1:1`)).toBeUndefined();
  });
});

describe('StderrLog', () => {
  it('counts and matches every line, not only the tail, across chunk boundaries', () => {
    const log = new StderrLog();
    const seen: string[] = [];
    log.onCause = (cause) => seen.push(cause.id);
    log.push(Buffer.from('Error: connect ECONNREF'));
    log.push(Buffer.from('USED 127.0.0.1:5432\n'));
    for (let i = 0; i < 30; i++) log.push(Buffer.from(`info line ${i}\n`));
    log.push(Buffer.from('last line without newline'));
    log.end();
    expect(log.lineCount).toBe(32);
    expect(log.errorLikeCount).toBe(1);
    expect(seen).toEqual(['connection-refused']);
    expect(log.lastLines(2)).toEqual(['info line 29', 'last line without newline']);
  });

  it('keeps the error-like lines before the tail to show, distinct and bounded (issue #19 item 3)', () => {
    const log = new StderrLog();
    for (let i = 0; i < 3; i++) log.push(Buffer.from('FATAL:  password authentication failed for user "app"\n'));
    for (let i = 0; i < 12; i++) log.push(Buffer.from(`Error: step ${i} failed\n`));
    for (let i = 0; i < 30; i++) log.push(Buffer.from(`info line ${i}\n`));
    log.push(Buffer.from('Error: step 0 failed\n'));
    log.end();
    expect(log.errorLikeCount).toBe(16);
    expect(log.errorLines).toHaveLength(10);
    expect(log.errorLinesCapped).toBe(true);
    // The repeat in the tail is shown there, not twice.
    expect(log.errorLinesBefore(20)).toEqual(['FATAL:  password authentication failed for user "app"', ...Array.from({ length: 8 }, (_, i) => `Error: step ${i + 1} failed`)]);
  });

  it.each([
    ["ModuleNotFoundError: No module named 'x'", true],
    ['psycopg.OperationalError: connection failed', true],
    ['/usr/bin/python3: No module named x', true],
    ['NOAUTH Authentication required.', true],
    ['the mirror is up', false],
    ['info: 3 tools registered', false],
  ])('error-like: %s → %s', (line, errorLike) => {
    expect(isErrorLike(line)).toBe(errorLike);
    const log = new StderrLog();
    log.push(Buffer.from(`${line}\n`));
    expect(log.errorLikeCount).toBe(errorLike ? 1 : 0);
  });

  it('counts a 200 kB line as one line and shortens it for display', () => {
    const log = new StderrLog();
    log.push(Buffer.from(`${'y'.repeat(200_000)}\n`));
    log.end();
    expect(log.lineCount).toBe(1);
    expect(log.lastLines(1, 100)[0]).toMatch(/^y{100}… \(\d+ characters\)$/);
  });
});

describe('classifying a failed attempt (from fields, not message texts)', () => {
  const base = { phase: 'initialize' as const, stderrCauses: [] };

  it('does not retry a missing command', () => {
    expect(classifyAttempt({ ...base, phase: 'spawn', error: { code: 'ENOENT', command: 'nope' } })).toMatchObject({ id: 'command-not-found', retryable: false });
  });

  it('gives the stderr cause as the reason, with how the server exited', () => {
    const cause = causeInStderrLine('Error: connect ECONNREFUSED 127.0.0.1:1883')!;
    expect(classifyAttempt({ ...base, error: new Error('Connection closed'), exit: { code: 1, signal: null }, stderrCauses: [cause] }).reason).toBe(
      'the server could not connect to 127.0.0.1:1883 (connection refused: nothing listens there); the server exited with code 1',
    );
  });

  it('does not retry a refused protocol version (the MCP error data, or the SDK check)', () => {
    expect(
      classifyAttempt({ ...base, error: Object.assign(new Error('MCP error -32602: Unsupported protocol version'), { code: -32602, data: { supported: ['2026-07-28'], requested: '2025-11-25' } }) }),
    ).toMatchObject({
      id: 'protocol-version',
      reason: 'the server refused protocol version 2025-11-25 (it supports 2026-07-28)',
      retryable: false,
    });
    expect(classifyAttempt({ ...base, error: new Error("Server's protocol version is not supported: 2099-01-01") })).toMatchObject({ id: 'protocol-version', retryable: false });
  });

  it('does not retry HTTP 401/403', () => {
    expect(classifyAttempt({ ...base, error: Object.assign(new Error('Error POSTing to endpoint'), { code: 401 }), url: 'http://127.0.0.1:1/mcp' })).toMatchObject({
      id: 'http-auth',
      retryable: false,
    });
  });

  it('does not retry an invalid URL, and does not quote it (it may hold a password)', () => {
    let error: unknown;
    try {
      new URL('http://user:pw@[bad');
    } catch (thrown) {
      error = thrown;
    }
    const cause = classifyAttempt({ ...base, error });
    expect(cause).toMatchObject({ id: 'invalid-url', retryable: false });
    expect(cause.reason).not.toContain('pw');
  });

  it('advises raising connectTimeoutMs only for a plain timeout', () => {
    expect(classifyAttempt({ ...base, error: new Error('aborted'), stop: { kind: 'timeout', ms: 300 } }).reason).toBe(
      'no answer to initialize within 300 ms (the server hangs, or starts slowly: raise connectTimeoutMs)',
    );
    const refused = causeInStderrLine('Error: connect ECONNREFUSED 127.0.0.1:6379')!;
    expect(classifyAttempt({ ...base, error: new Error('aborted'), stop: { kind: 'cause', cause: refused } }).reason).not.toContain('connectTimeoutMs');
  });

  it('says an install ran out of time, not that the server hung', () => {
    const runner = detectPackageRunner('npx', ['-y', 'big-mcp@latest'])!;
    expect(classifyAttempt({ ...base, phase: 'install', error: new Error('aborted'), stop: { kind: 'install-timeout', ms: 120_000, runner } })).toMatchObject({
      reason: "npx was still installing 'big-mcp@latest' after 120 s",
      retryable: false,
    });
  });
});

describe('package runners', () => {
  it.each([
    ['npx', ['-y', '@scope/server@1.2.0', '--port', '1'], 'npx', '@scope/server@1.2.0'],
    ['npx', ['--yes', '--package=@scope/pkg', 'server-bin'], 'npx', '@scope/pkg'],
    ['/usr/local/bin/npx', ['mongodb-mcp-server@latest'], 'npx', 'mongodb-mcp-server@latest'],
    ['npm', ['exec', '--yes', '--', 'some-mcp'], 'npm exec', 'some-mcp'],
    ['pnpm', ['dlx', 'some-mcp'], 'pnpm dlx', 'some-mcp'],
    ['uvx', ['--from', 'mcp-server-git', 'mcp-server-git'], 'uvx', 'mcp-server-git'],
    ['bunx', ['some-mcp'], 'bunx', 'some-mcp'],
  ])('%s %j', (command, args, label, packageSpec) => {
    expect(detectPackageRunner(command, args)).toMatchObject({ label, packageSpec });
  });

  it('is not fooled by other commands', () => {
    expect(detectPackageRunner('node', ['server.js'])).toBeUndefined();
    expect(detectPackageRunner('npm', ['run', 'start'])).toBeUndefined();
  });

  it('strips the version from a package spec', () => {
    expect(packageNameOf('@scope/name@1.2')).toBe('@scope/name');
    expect(packageNameOf('name@latest')).toBe('name');
    expect(packageNameOf('@scope/name')).toBe('@scope/name');
  });
});

describe('retry delays (seed 002)', () => {
  it('are 0, base, then doubling', () => {
    const policy = { attempts: 4, baseDelayMs: 2000 };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, policy))).toEqual([0, 2000, 4000, 8000]);
  });
});
