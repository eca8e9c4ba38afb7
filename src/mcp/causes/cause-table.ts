/**
 * The cause table's rows (failure-causes.ts matches them): what a server's stderr can say, on stable
 * tokens (npm's `code EXXX`, Node's errno codes, Python's exception names, database and container
 * errors), each with its reason, fix and retry decision. Rows only: adding a cause is adding a row.
 */

import type { CauseContext, StderrRule } from './cause-types.js';
import { SERVICE_RULES } from './service-causes.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';

export type { Cause, CauseContext, StderrRule } from './cause-types.js';

const pkg = (context: CauseContext) => (context.packageName ? `'${context.packageName}'` : 'the package');

/** npm's error codes (`npm ERR! code X` up to npm 9, `npm error code X` from npm 10). */
const NPM_CODES: Record<string, { reason: (context: CauseContext) => string; fix: (context: CauseContext) => string; retryable: boolean }> = {
  E404: { reason: (c) => `npm could not find ${pkg(c)} in the registry (npm code E404)`, fix: () => 'check the package name in "args" (npm view NAME shows whether it exists)', retryable: false },
  ETARGET: { reason: (c) => `no version of ${pkg(c)} matches the one asked for (npm code ETARGET)`, fix: () => 'fix the version in "args" (npm view NAME versions lists them)', retryable: false },
  ENOVERSIONS: { reason: (c) => `${pkg(c)} has no published versions (npm code ENOVERSIONS)`, fix: () => 'check the package name in "args"', retryable: false },
  E401: { reason: () => "the registry refused npm's credentials (npm code E401)", fix: () => 'log in to the registry (npm login) or fix the token in .npmrc', retryable: false },
  E403: { reason: () => "the registry forbids this package to npm's credentials (npm code E403)", fix: () => 'check access to the package, or the token in .npmrc', retryable: false },
  ENOTFOUND: {
    reason: () => 'npm could not reach the registry (npm code ENOTFOUND)',
    fix: () => 'check the network or the registry in .npmrc; or install the package, so npx does not need to download it',
    retryable: false,
  },
  EAI_AGAIN: {
    reason: () => "npm could not resolve the registry's host (npm code EAI_AGAIN)",
    fix: () => 'check the network or DNS; or install the package, so npx does not need to download it',
    retryable: false,
  },
  ECONNREFUSED: { reason: () => 'npm could not connect to the registry (npm code ECONNREFUSED)', fix: () => 'check the registry address in .npmrc and the network', retryable: false },
  ETIMEDOUT: {
    reason: () => 'npm timed out talking to the registry (npm code ETIMEDOUT)',
    fix: () => 'check the network; or install the package, so npx does not need to download it',
    retryable: false,
  },
  EACCES: { reason: () => 'npm may not write its cache (npm code EACCES)', fix: () => 'fix the ownership of the npm cache folder (~/.npm), or set npm_config_cache', retryable: false },
  EPERM: { reason: () => 'npm may not write its cache (npm code EPERM)', fix: () => 'fix the permissions of the npm cache folder (~/.npm), or set npm_config_cache', retryable: false },
};

/** In order: the first rule that matches a line wins. */
export const STDERR_RULES: StderrRule[] = [
  {
    // npm 10 and 11: "npm error npx canceled due to missing packages and no YES option: [...]"; npm 7 to 9: "npm ERR! canceled".
    id: 'npx-needs-yes',
    pattern: /npx canceled due to missing packages and no YES option|^npm ERR! canceled\b/,
    retryable: false,
    endsAttempt: true,
    reason: (_m, c) => `npx wants to ask before installing ${pkg(c)}, and cannot ask (stdin is not a terminal)`,
    fix: () => 'add "-y" to args, before the package name: "args": ["-y", …]',
  },
  {
    id: 'npm-error-code',
    pattern: /^npm (?:ERR!|error) code (E[A-Z0-9_]+)/,
    retryable: false,
    endsAttempt: true,
    reason: (m, c) => NPM_CODES[m[1]!]?.reason(c) ?? `npm failed with code ${m[1]}`,
    fix: (m, c) => NPM_CODES[m[1]!]?.fix(c) ?? `see npm's error above (npm code ${m[1]})`,
  },
  {
    id: 'node-module-not-found',
    pattern: /Cannot find module '([^']+)'/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => (/^[./]/.test(m[1]!) ? `the file '${m[1]}' does not exist (Node: Cannot find module)` : `the module '${m[1]}' is not installed (Node: Cannot find module)`),
    fix: (m) =>
      /^[./]/.test(m[1]!) ? 'fix the path in "args" (relative paths start at "cwd"), or build the server first' : `install the server's dependencies (npm install in its folder): '${m[1]}' is missing`,
  },
  {
    id: 'node-package-not-found',
    pattern: /Cannot find package '([^']+)'|ERR_MODULE_NOT_FOUND/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `${m[1] ? `the package '${m[1]}'` : 'a package'} is not installed (Node: ERR_MODULE_NOT_FOUND)`,
    fix: () => "install the server's dependencies (npm install in its folder)",
  },
  {
    id: 'python-module-not-found',
    pattern: /ModuleNotFoundError: No module named '([^']+)'/,
    retryable: false,
    endsAttempt: true,
    // Python names the first part of a dotted name that is missing: 'a.b' means 'a' is installed without 'b' (another version of it).
    reason: (m) =>
      m[1]!.includes('.')
        ? `the installed Python package '${m[1]!.split('.')[0]}' has no module '${m[1]}' (ModuleNotFoundError): the server was written for another version of it`
        : `the Python module '${m[1]}' is not installed (ModuleNotFoundError)`,
    fix: (m) =>
      m[1]!.includes('.')
        ? `install the version of '${m[1]!.split('.')[0]}' the server was written for (pip install '${m[1]!.split('.')[0]}==VERSION'), or update the server's import of '${m[1]}'`
        : `install it in the server's environment (pip install ${m[1]!.split('.')[0]}), or run the server with the right venv`,
  },
  {
    // `python -m X` (runpy): "/usr/bin/python3: No module named X", unquoted, no exception name.
    id: 'python-run-module-missing',
    pattern: /: No module named ([\w.]+)\s*$/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `Python has no module '${m[1]}' to run (python -m ${m[1]}: No module named ${m[1]})`,
    fix: (m) => `install the package that provides '${m[1]}' in the Python the server runs with (pip install …), or fix the module name in "args"`,
  },
  {
    // "python3: can't open file '/srv/app/server.py': [Errno 2] No such file or directory"
    id: 'python-file-not-found',
    pattern: /can't open file '([^']+)': \[Errno 2\]/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `the Python script '${m[1]}' does not exist (python: can't open file)`,
    fix: () => 'fix the path in "args" (relative paths start at "cwd")',
  },
  {
    // The last line of a traceback at import: "ImportError: cannot import name 'FastMCP' from 'mcp.server' (/…/__init__.py)".
    id: 'python-import-error',
    pattern: /^ImportError: (?:cannot import name '([^']+)' from '([^']+)'|(.+))/,
    retryable: false,
    endsAttempt: true,
    reason: (m) =>
      m[1]
        ? `the installed Python module '${m[2]}' has no '${m[1]}' (ImportError): the server was written for another version of '${m[2]!.split('.')[0]}'`
        : `the server's Python code failed to import: ${maskThenCut(m[3]!, 200)} (ImportError)`,
    fix: (m) =>
      m[1]
        ? `install the version of '${m[2]!.split('.')[0]}' the server was written for (pip install '${m[2]!.split('.')[0]}==VERSION'), or update the server's import of '${m[1]}'`
        : "install the server's dependencies in the Python it runs with (its requirements), or run it with the right venv",
  },
  {
    // The docker CLI: "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"
    id: 'docker-daemon-down',
    pattern: /Cannot connect to the Docker daemon(?: at (\S+?))?\.? Is the docker daemon running/i,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `Docker is not running: the docker command cannot reach its daemon${m[1] ? ` at ${m[1]}` : ''}`,
    fix: () => 'start Docker (Docker Desktop, or sudo systemctl start docker), or point DOCKER_HOST at a running daemon',
  },
  {
    id: 'docker-permission-denied',
    pattern: /permission denied while trying to connect to the Docker daemon socket/i,
    retryable: false,
    endsAttempt: true,
    reason: () => 'the docker command may not use the Docker daemon (permission denied on its socket)',
    fix: () => "add the user to the 'docker' group (then log in again), or use rootless Docker",
  },
  {
    // pip: "ERROR: No matching distribution found for mcp-server-nope" (also what it says when the index cannot be reached).
    id: 'pip-no-distribution',
    pattern: /No matching distribution found for (\S+)/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `pip found no version of '${m[1]}' to install (No matching distribution found)`,
    fix: (m) => `check the package name and version ('${m[1]}'; pip index versions NAME lists them), and that the package index can be reached`,
  },
  {
    // uv / uvx: "× No solution found when resolving tool dependencies:", then "╰─▶ Because X was not found in the package registry and …".
    id: 'uv-no-solution',
    pattern: /No solution found when resolving (?:tool )?dependencies/,
    retryable: false,
    endsAttempt: true,
    reason: (_m, c) => `uv could not resolve ${pkg(c)} (No solution found when resolving dependencies)`,
    fix: () => 'check the package name and version in "args": uv\'s explanation in the server\'s stderr names the requirement it could not meet',
  },
  {
    id: 'uv-package-not-found',
    pattern: /Because (\S+?) was not found in the package registry/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `'${m[1]}' is not in the package registry (uv)`,
    fix: (m) => `check the package name '${m[1]}' in "args" (is it published on PyPI under that name?)`,
  },
  ...SERVICE_RULES,
  {
    id: 'connection-refused',
    // Node writes IPv6 addresses bare: "ECONNREFUSED ::1:5432".
    pattern: /ECONNREFUSED ((?:\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F]+|[\w.-]+):\d+)/,
    retryable: true,
    endsAttempt: true,
    reason: (m) => `the server could not connect to ${m[1]} (connection refused: nothing listens there)`,
    fix: (m) => `start the service the server needs at ${m[1]}, or point the server at the right address`,
  },
  {
    id: 'host-not-found',
    pattern: /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([\w.-]+)/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `the server could not resolve the host '${m[1]}' (DNS lookup failed)`,
    fix: (m) => `check the host name '${m[1]}' in the server's settings, and the network`,
  },
  {
    id: 'address-in-use',
    pattern: /EADDRINUSE(?:[^\n]*?((?:\[[0-9a-fA-F:.]*\]|[\w.:-]*):\d+))?/,
    retryable: false,
    endsAttempt: true,
    reason: (m) => `a port the server wants${m[1] ? ` (${m[1]})` : ''} is already in use (EADDRINUSE)`,
    fix: () => 'stop the other process holding the port, or configure the server to use another port',
  },
  {
    id: 'python-traceback',
    pattern: /^Traceback \(most recent call last\)/,
    retryable: true,
    endsAttempt: false,
    reason: () => 'the server (Python) raised an exception (see its traceback in stderr)',
    fix: () => "read the last lines of the server's traceback: they name the exception",
  },
  {
    id: 'permission-denied',
    pattern: /\bEACCES\b|[Pp]ermission denied/,
    retryable: false,
    endsAttempt: false,
    reason: () => 'the server was denied permission to a file or port (EACCES)',
    fix: () => 'check the permissions of the files and ports the server uses',
  },
  {
    id: 'protocol-version-refused',
    pattern: /[Uu]nsupported protocol version/,
    retryable: false,
    endsAttempt: true,
    reason: () => 'the server does not support the MCP protocol version toolrun offered',
    fix: () => 'use a server version that speaks protocol 2024-11-05 or later (toolrun speaks the 2025 family)',
  },
];
