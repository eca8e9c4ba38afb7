/**
 * How many `--sampling-command` processes run at once: a model call is slow and heavy (a CLI, an API
 * round trip), and a server may ask a hundred times at once; the rest wait their turn, in order.
 */
export const MAX_RUNNING_COMMANDS = 4;

/**
 * How many a single toolrun command starts in all: a server asking without end (a loop) gets error
 * replies past it, rather than toolrun starting processes for as long as it runs.
 */
export const MAX_COMMANDS_PER_RUN = 500;

/** A request the queue did not run: interrupted while waiting, or past the total. */
export class SamplingQueueError extends Error {
  constructor(
    readonly reason: string,
    readonly pastLimit = false,
  ) {
    super(reason);
    this.name = 'SamplingQueueError';
  }
}

/**
 * Runs jobs at most `maxRunning` at a time, in the order they came, and at most `maxTotal` in all. A
 * job whose `signal` aborts while it waits never starts.
 */
export class SamplingQueue {
  readonly #maxRunning: number;
  readonly #maxTotal: number;
  #running = 0;
  #started = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(options: { maxRunning?: number; maxTotal?: number } = {}) {
    this.#maxRunning = options.maxRunning ?? MAX_RUNNING_COMMANDS;
    this.#maxTotal = options.maxTotal ?? MAX_COMMANDS_PER_RUN;
  }

  async run<T>(job: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.#started + this.#waiting.length >= this.#maxTotal) throw new SamplingQueueError(`was not run: it already ran ${this.#maxTotal} times in this command (toolrun's limit)`, true);
    // A job that waited gets the place of the one that ended (handed over, never counted free in between).
    if (this.#running >= this.#maxRunning) await this.#turn(signal);
    else this.#running++;
    this.#started++;
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }

  /** Resolves when a running job ends and this one is first in line; rejects if `signal` aborts first. */
  #turn(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new SamplingQueueError('was interrupted while waiting for its turn'));
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(go);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(new SamplingQueueError('was interrupted while waiting for its turn'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(go);
    });
  }
}
