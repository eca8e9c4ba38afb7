import type { RetryPolicy } from '../config/config-types.js';
import type { ServerSpec } from '../config/resolve-server.js';
import { ServerUnavailableError } from '../errors.js';
import { AttemptError, connectOnce, type ConnectHooks } from './connect-once.js';
import { buildConnectFailure, type ConnectFailure } from './connect-failure.js';
import { classifyAttempt } from './classify-attempt.js';
import type { ServerConnection } from './server-connection.js';

export interface RetryLogger {
  warn(message: string): void;
  info(message: string): void;
}

/** Delay before attempt `n` (1-based): 0, then baseDelayMs, doubling (seed 002: 0 s, 2 s, 4 s). */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number {
  return attempt <= 1 ? 0 : policy.baseDelayMs * 2 ** (attempt - 2);
}

/** Carries the whole story of a server that could not be connected (exit 4). */
export class ServerConnectError extends ServerUnavailableError {
  constructor(readonly failure: ConnectFailure) {
    super(failure.server, `MCP connection failed after ${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}: server '${failure.server}': ${failure.reason}`);
    this.name = 'ServerConnectError';
  }
}

/**
 * Connects with retry (seed 002). Every retry is logged with its attempt number and delay; success
 * after a retry logs "MCP connection succeeded on attempt N". A missing command is not retried.
 */
export async function connectWithRetry(
  spec: ServerSpec,
  policy: RetryPolicy,
  options: {
    hooks?: ConnectHooks;
    logger: RetryLogger;
    signal?: AbortSignal;
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
    /** Called before each attempt (1-based): a new process, a new stdout. */
    onAttempt?: (attempt: number) => void;
  },
): Promise<ServerConnection> {
  const sleep = options.sleep ?? sleepMs;
  const pollution: string[] = [];
  const hooks: ConnectHooks = {
    ...options.hooks,
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
      if (pollution.length < 20) pollution.push(line.bytes.toString('utf8').slice(0, 200));
      options.hooks?.onPollution?.(server, line, reason);
    },
  };
  let lastError: AttemptError | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    const delay = retryDelayMs(attempt, policy);
    if (delay > 0) await sleep(delay, options.signal);
    if (options.signal?.aborted) throw options.signal.reason;
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
