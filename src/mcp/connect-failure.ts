import type { ExitInfo } from './stdio-tap-transport.js';

/** Why one connection attempt failed, in words a person can act on. */
export interface ConnectFailure {
  server: string;
  /** One line: "server exited with code 1 before answering initialize". */
  reason: string;
  /** Worth another attempt? A missing command or a config problem is not. */
  retryable: boolean;
  attempts: number;
  exit?: ExitInfo;
  /** The server's stderr, last lines (stdio servers). */
  stderrLines: string[];
  /** Concrete things to check: the config's hint, then what toolrun can infer. */
  checks: string[];
  /** stdout lines that were not JSON-RPC, as seen during the attempt. */
  pollution: string[];
}

/** npx announcing that it downloads the package: a slow first start, not a broken server. */
export const NPX_DOWNLOAD = /Need to install the following packages|npm (warn|WARN) exec/;

interface Signature {
  pattern: RegExp;
  check: (match: RegExpMatchArray) => string;
}

// What a server's stderr (or the error) says, turned into the thing to fix (SPEC §4 "Check:").
const SIGNATURES: Signature[] = [
  { pattern: /Cannot find module '([^']+)'/, check: (m) => `module '${m[1]}' not found: install the server's dependencies (npm install in its folder) or fix the path in args` },
  { pattern: /ERR_MODULE_NOT_FOUND|Cannot find package '([^']+)'/, check: (m) => `a package${m[1] ? ` ('${m[1]}')` : ''} is missing: run npm install in the server's folder` },
  { pattern: /ECONNREFUSED ([\w.:[\]-]+)/, check: (m) => `connection refused at ${m[1]}: is the service the server needs running?` },
  { pattern: /EADDRINUSE.*?(:\d+|port \d+)?/i, check: () => 'a port the server wants is already in use: stop the other process or change the port' },
  { pattern: /Traceback \(most recent call last\)/, check: () => 'the server (Python) raised an exception at startup: see its traceback above' },
  { pattern: /ModuleNotFoundError: No module named '([^']+)'/, check: (m) => `Python module '${m[1]}' is not installed in the server's environment (pip install ${m[1]}, or use the right venv)` },
  { pattern: /EACCES|permission denied/i, check: () => 'permission denied: check file permissions of the command and its files' },
  { pattern: /npm (ERR|error)! (code E404|404)/, check: () => 'npx could not find the package: check its name' },
  { pattern: NPX_DOWNLOAD, check: () => 'npx is downloading the package first (cold cache): the first start is slow; install the package, or raise connectTimeoutMs' },
  { pattern: /\b(401|403)\b|Unauthorized|Forbidden/, check: () => 'the server refused the credentials: check the Authorization header in "headers" (and the ${VAR} it uses)' },
];

/** Checks inferred from the stderr text and the failure reason. */
export function inferChecks(text: string): string[] {
  const checks: string[] = [];
  for (const { pattern, check } of SIGNATURES) {
    const match = text.match(pattern);
    if (match) checks.push(check(match));
  }
  return checks;
}
