import type { PreparedCall, ToolExecutor } from '../executor/tool-executor.js';

export interface TimedCallsOptions {
  iterations: number;
  warmup: number;
  concurrency: number;
  signal?: AbortSignal;
  /** After each measured call (for a progress display); keep it cheap. */
  onProgress?: (done: number) => void;
  /** Asked after a failed call: true when no later call can succeed (the server is gone). */
  isFatal?: () => boolean;
}

export interface TimedCallsResult {
  /** Each successful measured call's duration in ms, in completion order. */
  durations: number[];
  /** Calls made, failed ones included. */
  calls: number;
  /** The failure that ended the run early (the server died), if any. */
  stoppedBy?: string;
  /** Error message → how many calls failed with it. */
  /** Each distinct error message and how many calls failed with it. */
  errors: Map<string, number>;
  errorCount: number;
  wallMs: number;
}

/**
 * Runs a prepared call `warmup` times, then `iterations` times, `concurrency` at a time, timing each
 * with the monotonic clock. Nothing but the call and the clock reads sits between two timestamps:
 * no lookup, validation or logging (done once before).
 */
export async function runTimedCalls(executor: ToolExecutor, prepared: PreparedCall, options: TimedCallsOptions): Promise<TimedCallsResult> {
  // The calls get no signal: Ctrl-C ends the servers (failing a call in flight) and stops this loop,
  // and a per-call listener on a session-long signal is cost without use.
  for (let i = 0; i < options.warmup && !options.signal?.aborted; i++) await executor.executePrepared(prepared, { silent: true });
  const durations: number[] = [];
  const errors = new Map<string, number>();
  let errorCount = 0;
  let started = 0;
  let stoppedBy: string | undefined;
  const startedAt = process.hrtime.bigint();
  const worker = async () => {
    while (started < options.iterations && !options.signal?.aborted && stoppedBy === undefined) {
      started++;
      const before = process.hrtime.bigint();
      const envelope = await executor.executePrepared(prepared, { silent: true });
      const ms = Number(process.hrtime.bigint() - before) / 1e6;
      if (envelope.success) durations.push(ms);
      else {
        errorCount++;
        errors.set(envelope.error, (errors.get(envelope.error) ?? 0) + 1);
        if (options.isFatal?.()) stoppedBy ??= envelope.error;
      }
      options.onProgress?.(durations.length + errorCount);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.iterations)) }, worker));
  return { durations, calls: durations.length + errorCount, stoppedBy, errors, errorCount, wallMs: Number(process.hrtime.bigint() - startedAt) / 1e6 };
}

/** How many distinct error messages a report shows; the rest are counted together. */
export const SHOWN_ERRORS = 10;

/**
 * The most frequent error messages (SHOWN_ERRORS of them) and a count of the rest: 100,000 calls
 * failing with 50,000 different messages make one screen, not 50,000 lines.
 */
export function groupErrors(errors: Map<string, number>): { top: Record<string, number>; other?: { distinct: number; calls: number } } {
  const sorted = [...errors].sort((a, b) => b[1] - a[1]);
  const top: Record<string, number> = Object.create(null);
  for (const [message, count] of sorted.slice(0, SHOWN_ERRORS)) top[message] = count;
  const rest = sorted.slice(SHOWN_ERRORS);
  return rest.length > 0 ? { top, other: { distinct: rest.length, calls: rest.reduce((total, [, count]) => total + count, 0) } } : { top };
}
