import type { RetryPolicy } from '../../config/config-types.js';
import { MAX_TIMER_MS } from '../../config/max-timer-ms.js';
import type { ServerSpec } from '../../config/resolve-server.js';
import { ServerUnavailableError } from '../../errors.js';
import type { RecordingWriter } from '../../record/recording.js';
import { StdoutScanner } from '../../scan/stdout-scanner.js';
import { AttemptError, connectOnce, type ConnectHooks } from './connect-once.js';
import { buildConnectFailure, type ConnectFailure } from './connect-failure.js';
import { classifyAttempt } from './classify-attempt.js';
import type { ServerConnection } from '../server-connection.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';

export interface RetryLogger {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * Delay before attempt `n` (1-based): 0, then baseDelayMs, doubling (seed 002: 0 s, 2 s, 4 s). The
 * doubling is capped at the longest a timer can wait: past it Node would retry at once instead.
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number {
  return attempt <= 1 ? 0 : Math.min(MAX_TIMER_MS, policy.baseDelayMs * 2 ** (attempt - 2));
}

/** Carries the whole story of a server that could not be connected (exit 4). */
export class ServerConnectError extends ServerUnavailableError {
  constructor(readonly failure: ConnectFailure) {
    super(failure.server, `MCP connection failed after ${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}: server '${failure.server}': ${failure.reason}`);
    this.name = 'ServerConnectError';
  }
}

/** One tools/call a diagnosis makes during its session (doctor, check-stdout --call). */
export interface SessionCall {
  tool: string;
  /** The call's arguments, given the tool's input schema (to type key=value words). */
  args: (inputSchema: Record<string, unknown> | undefined) => Record<string, unknown>;
}

/** The scan of a session's stdout: each attempt is a new process, so a new scan; `current` is the last one. */
export class AttemptScan {
  current = new StdoutScanner();
  restart(): void {
    this.current = new StdoutScanner();
  }
}

export interface SessionOptions {
  hooks?: ConnectHooks;
  logger: RetryLogger;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each attempt (1-based): a new process, a new stdout. */
  onAttempt?: (attempt: number) => void;
  /** Where the session is recorded as it happens (SPEC §11), started again with each attempt. */
  recording?: RecordingWriter;
  /** Every stdout line scanned as a strict client reads it, failed attempts included (the polluting line may be why it failed). */
  stdoutScan?: AttemptScan;
}

/**
 * Opens an MCP session with a server, with retry (seed 002): every command that talks to servers
 * comes through here. Every retry is logged with its attempt number and delay; success after a
 * retry logs "MCP connection succeeded on attempt N". A missing command is not retried. Throws
 * ServerConnectError with the whole story when no attempt succeeds.
 */
export async function openSession(spec: ServerSpec, policy: RetryPolicy, options: SessionOptions): Promise<ServerConnection> {
  const sleep = options.sleep ?? sleepMs;
  const pollution: string[] = [];
  const { recording, stdoutScan } = options;
  const hooks: ConnectHooks = {
    ...options.hooks,
    // Recorded as well as passed on: a caller's own hooks still hear every chunk.
    ...(recording && {
      onStdoutChunk: (server, chunk) => {
        recording.write('recv', chunk);
        options.hooks?.onStdoutChunk?.(server, chunk);
      },
      onStdinChunk: (server, chunk) => {
        recording.write('send', chunk);
        options.hooks?.onStdinChunk?.(server, chunk);
      },
      onStderr: (server, chunk) => {
        recording.write('stderr', chunk);
        options.hooks?.onStderr?.(server, chunk);
      },
    }),
    ...(stdoutScan && {
      onStdoutLine: (server, line) => {
        stdoutScan.current.scanLine(line);
        options.hooks?.onStdoutLine?.(server, line);
      },
    }),
    signal: options.signal,
    onInstalling:
      options.hooks?.onInstalling ??
      ((server, runner) =>
        options.logger.info(
          `${runner.label} is downloading ${runner.packageSpec}… (server '${server}'; waiting up to ${Math.round(spec.transport === 'stdio' ? spec.installTimeoutMs / 1000 : 0)} s: installTimeoutMs)`,
        )),
    onCacheRepaired:
      options.hooks?.onCacheRepaired ??
      ((server, folders) => options.logger.warn(`MCP server '${server}': its install was interrupted; removed the half-written npx cache entry ${folders.join(', ')}`)),
    onPollution: (server, line, reason) => {
      if (pollution.length < 20) pollution.push(maskThenCut(line.bytes.toString('utf8'), 200));
      options.hooks?.onPollution?.(server, line, reason);
    },
  };
  let lastError: AttemptError | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    const delay = retryDelayMs(attempt, policy);
    if (delay > 0) await sleep(delay, options.signal);
    if (options.signal?.aborted) throw options.signal.reason;
    // A new process: its recording and its scan start over (the last attempt's are the story).
    recording?.restart();
    stdoutScan?.restart();
    options.onAttempt?.(attempt);
    try {
      const connection = await connectOnce(spec, hooks);
      connection.attempt = attempt;
      if (attempt > 1) options.logger.info(`MCP connection succeeded on attempt ${attempt}: server '${spec.name}'`);
      return connection;
    } catch (error) {
      // Ctrl-C: not a failure of the server.
      if (options.signal?.aborted) throw error;
      lastError = error instanceof AttemptError ? error : new AttemptError(classifyAttempt({ phase: 'initialize', error, stderrCauses: [] }), 'initialize', undefined, { cause: error });
      if (!lastError.retryable) {
        if (attempt < policy.attempts) options.logger.warn(`MCP server '${spec.name}': ${lastError.message}; not retried (it would fail the same way)`);
        throw new ServerConnectError(buildConnectFailure(spec, lastError, attempt, pollution));
      }
      if (attempt < policy.attempts) {
        const next = retryDelayMs(attempt + 1, policy);
        options.logger.warn(`MCP server '${spec.name}': attempt ${attempt} of ${policy.attempts} failed (${lastError.message}); retrying in ${next} ms`);
      }
    }
  }
  throw new ServerConnectError(buildConnectFailure(spec, lastError!, policy.attempts, pollution));
}

function sleepMs(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
