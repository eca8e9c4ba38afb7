import type { AttemptStop } from './attempt-deadline.js';
import { mainCause, type Cause } from '../causes/failure-causes.js';
import type { PackageRunner } from './package-runner.js';
import type { ExitInfo } from '../../process/exit-info.js';
import { describeSchemaIssues, isSchemaError } from '../describe-invalid-result.js';
import { TRANSPORT_FAULT_CODE } from '../transports/pending-requests.js';
import { PROTOCOL_SETTINGS } from '../../protocol/protocol-era.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';
import { toolrunCommand } from '../../text/quote-shell-word.js';

/** Where in a connection attempt something went wrong. */
export type AttemptPhase = 'spawn' | 'install' | 'server/discover' | 'initialize' | 'tools/list';

export interface AttemptEvidence {
  phase: AttemptPhase;
  /** The error the SDK or the transport threw. */
  error: unknown;
  /** Why toolrun stopped waiting, when it did. */
  stop?: AttemptStop;
  exit?: ExitInfo;
  /** Causes the server's stderr named, in the order they appeared. */
  stderrCauses: Cause[];
  /** Set for remote servers. */
  url?: string;
  runner?: PackageRunner;
}

const cause = (id: string, reason: string, fix: string, retryable: boolean): Cause => ({ id, reason, fix, retryable, endsAttempt: true });

/**
 * The one place a failed connection attempt is classified, from fields only: the spawn error's
 * errno code, why toolrun stopped waiting, the exit status, the causes the stderr table found, an
 * HTTP status, the MCP error's code and data. Gives the Reason line, the fix and the retry decision.
 */
export function classifyAttempt(evidence: AttemptEvidence): Cause {
  const { error, stop, exit, phase } = evidence;
  const code = (error as { code?: unknown })?.code;
  if (phase === 'spawn') return spawnCause(error as { code?: string; message?: string; command?: string });
  if (stop?.kind === 'install-timeout') {
    const { label, packageSpec } = stop.runner;
    return cause(
      'install-timeout',
      `${label} was still installing '${packageSpec}' after ${Math.round(stop.ms / 1000)} s`,
      // `npx -y PKG --help` would start the server (most ignore --help) and wait on the terminal; `--package … -- true`
      // fills the same npx cache entry and exits (issue #19 item 21, checked against a real npx).
      runnerPrewarm(stop.runner),
      false,
    );
  }
  const exited = exit ? `; the server ${describeExit(exit)}` : '';
  const named = stop?.kind === 'cause' ? stop.cause : mainCause(evidence.stderrCauses.filter((item) => item.endsAttempt || exit));
  if (named) return { ...named, reason: `${named.reason}${exited}` };
  if (code === 'PROTOCOL_ERA') return cause('protocol-era', (error as Error).message, 'use a server that speaks MCP 2024-11-05 or later (or 2026-07-28), or fix "protocol" in its entry', false);
  // Over Streamable HTTP the SDK puts a refused POST's body in its message: the JSON-RPC error in it is the server's answer.
  const answered = evidence.url ? jsonRpcErrorInHttpBody(error) : undefined;
  const versionRefused = protocolVersionRefused(answered ?? error);
  if (versionRefused) {
    const supported = ((answered ?? error) as { data?: { supported?: unknown } })?.data?.supported;
    const spoken = Array.isArray(supported) ? supported.map(String).find((version) => PROTOCOL_SETTINGS.includes(version)) : undefined;
    const fix = spoken
      ? `let toolrun choose the protocol ("protocol": "auto", the default), or fix it to ${spoken}`
      : 'use a server that speaks MCP 2024-11-05 or later, or a toolrun that speaks its version';
    return cause('protocol-version', versionRefused, fix, false);
  }
  const authFailure = authErrorIn(error);
  if (authFailure?.code === 'AUTH_REQUIRED') return cause('auth-required', authFailure.why, `run \`${authFailure.loginCommand}\` (a browser opens; --no-browser over SSH)`, false);
  if (authFailure)
    return cause(
      'auth-flow',
      authFailure.fix ? authFailure.why : authFailure.message,
      authFailure.fix ?? `the authorization server breaks a rule of the OAuth flow: see \`${toolrunCommand('mcp', 'doctor', authFailure.serverName ?? 'SERVER')}\``,
      false,
    );
  if (code === 401 || code === 403) {
    return cause('http-auth', `the server refused the request (HTTP ${code} ${code === 401 ? 'Unauthorized' : 'Forbidden'})`, 'check the token/header in "headers" (and the ${VAR} it uses)', false);
  }
  if (code === 'ERR_INVALID_URL') return cause('invalid-url', '"url" is not a valid URL', 'fix "url" in the config, e.g. "http://127.0.0.1:3001/mcp"', false);
  if (evidence.url && isConnectionRefused(error))
    return cause('remote-refused', `connection refused at ${evidence.url}: is the server running?`, 'start the server, or fix "url" (host and port)', true);
  // No "above": exec's box prints the stderr above the fix, doctor below it (issue #19 item 4).
  if (exit) return cause('exited', `server ${describeExit(exit)} before answering ${phase}`, "read the server's stderr: it says why it exited", true);
  if (stop?.kind === 'timeout')
    return cause(
      'timeout',
      `no answer to ${phase} within ${stop.ms} ms (the server hangs, or starts slowly: raise connectTimeoutMs)`,
      'if the server is slow to start, raise connectTimeoutMs; if it hangs, see its stderr',
      true,
    );
  if (code === -32001)
    return cause('timeout', `no answer to ${phase} in time (the server hangs, or starts slowly: raise connectTimeoutMs)`, 'raise connectTimeoutMs, or see the stderr of the server', true);
  if (code === 'ENDLESS_LIST') return cause('endless-list', (error as Error).message, "fix the server's pagination: nextCursor must be left out on the last page and never repeat", false);
  if (code === TRANSPORT_FAULT_CODE) return cause('transport-fault', (error as Error).message.replace(/^MCP error -?\d+: /, ''), "read the server's stderr; fix how it writes its answers", true);
  if (isSchemaError(error))
    return cause('invalid-answer', `the server's answer to ${phase} is not valid MCP: ${describeSchemaIssues(error)}`, 'fix the answer on the server (the MCP specification gives its shape)', false);
  const message = oneLine(answered ? `HTTP ${String(code)}: ${String(answered.message)}` : ((error as Error)?.message ?? String(error)));
  if (code === -32000 || /Connection closed/i.test(message)) return cause('closed', `the connection closed before ${phase} was answered`, "read the server's stderr: it closed its stdout", true);
  return cause('other', message.replace(/^MCP error -?\d+: /, ''), "see the server's stderr and the message above", true);
}

/** How to install a runner's package once, without the install timeout and without starting the server. */
function runnerPrewarm({ kind, label, packageSpec }: PackageRunner): string {
  if (kind === 'npm') return `install it once by hand: npx -y --package=${packageSpec} -- true (fills npx's cache without starting the server), or raise installTimeoutMs`;
  return `install it once by hand: run ${label} ${packageSpec} in a terminal and stop it (Ctrl-C) once the server started, or raise installTimeoutMs`;
}

/** "exited with code 1" or "was killed by SIGSEGV". */
export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

function spawnCause(error: { code?: string; message?: string; command?: string }): Cause {
  const command = error.command ?? 'the command';
  if (error.code === 'ENOENT')
    return cause('command-not-found', `command not found: '${command}' (not on PATH, or the file does not exist)`, `install '${command}' or give its absolute path in "command"`, false);
  if (error.code === 'ENOCWD') return cause('cwd-missing', error.message ?? 'working directory does not exist', 'fix "cwd" in the config (relative paths start at the config file)', false);
  if (error.code === 'EMFILE')
    return cause('too-many-open-files', error.message ?? 'too many open files', 'raise the open-files limit (ulimit -n 4096), or start fewer servers (--server NAME)', false);
  if (error.code === 'EACCES')
    return cause(
      'command-not-executable',
      `command not executable: '${command}' (permission denied; chmod +x it?)`,
      `make '${command}' executable (chmod +x), or run it through its interpreter`,
      false,
    );
  return cause('spawn-failed', `could not start '${command}': ${error.message ?? error.code}`, 'check "command" and "args"', true);
}

/** The reason when a server refused toolrun's protocol version, from the MCP error's data or the SDK's check. */
function protocolVersionRefused(error: unknown): string | undefined {
  const data = (error as { data?: { supported?: unknown; requested?: unknown } })?.data;
  if (data && Array.isArray(data.supported)) return `the server refused protocol version ${String(data.requested ?? '')} (it supports ${data.supported.join(', ')})`.replace('version  (', 'version (');
  const message = (error as Error)?.message ?? '';
  // The SDK's own check of the server's answer: "Server's protocol version is not supported: X".
  const answered = message.match(/protocol version is not supported: (\S+)/);
  if (answered) return `the server answered with protocol version ${answered[1]}, which toolrun does not speak`;
  if (/unsupported protocol version/i.test(message)) return `the server refused toolrun's protocol version (${oneLine(message).replace(/^MCP error -?\d+: /, '')})`;
  return undefined;
}

/** The JSON-RPC error a Streamable HTTP error carries in its message ("Error POSTing to endpoint: {…}"), if any. */
function jsonRpcErrorInHttpBody(error: unknown): { code?: unknown; message?: unknown; data?: unknown } | undefined {
  const message = (error as Error)?.message;
  const start = typeof message === 'string' ? message.indexOf('{"') : -1;
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(message.slice(start)) as { jsonrpc?: unknown; error?: unknown };
    return body?.jsonrpc === '2.0' && body.error && typeof body.error === 'object' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

function isConnectionRefused(error: unknown): boolean {
  const causeCode = (error as { cause?: { code?: string; cause?: { code?: string } } })?.cause;
  if (causeCode?.code === 'ECONNREFUSED' || causeCode?.cause?.code === 'ECONNREFUSED') return true;
  return /ECONNREFUSED|fetch failed/i.test(`${(error as Error)?.message ?? ''} ${String((error as { cause?: unknown })?.cause ?? '')}`);
}

/** The OAuth failure (auth/auth-errors.ts) an attempt's error is or wraps, by its code; undefined for any other. */
function authErrorIn(error: unknown): { code: string; message: string; why: string; loginCommand: string; serverName?: string; fix?: string } | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === 'AUTH_REQUIRED' || code === 'AUTH_FLOW') return current as ReturnType<typeof authErrorIn>;
  }
  return undefined;
}

/** Error texts can carry a whole HTML error page: keep one readable line. */
export function oneLine(text: string): string {
  const flat = text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return maskThenCut(flat, 300, '...');
}
