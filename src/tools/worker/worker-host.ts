import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { Writable } from 'node:stream';
import type { ToolCallContext } from '../../registry/tool-types.js';
import type { WorkerJob, WorkerRequest, WorkerResponse } from './worker-protocol.js';

export interface WorkerHostOptions {
  /** Caps for the thread; an expression that needs more memory ends the thread, not toolrun. */
  resourceLimits?: ResourceLimits;
  /** Where the tool's own console output goes. Never stdout: stdout carries results only. */
  diagnostics?: Writable;
  /** Label for messages, e.g. "math_eval". */
  label: string;
  /** What the worker runs: dist/math-worker.js or dist/internal-worker.js. */
  kind: WorkerJob['kind'];
}

interface Pending {
  /** The thread the call was sent to: only its own exit or error fails the call. */
  worker: Worker;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * One worker thread, started on first use and reused for later calls (`toolrun time` makes many).
 * A call that is aborted (timeout, Ctrl-C) terminates the thread, which stops even a busy loop;
 * the next call starts a fresh one.
 */
export class WorkerHost {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly #options: WorkerHostOptions;

  constructor(options: WorkerHostOptions) {
    this.#options = options;
  }

  #starting: Promise<Worker> | undefined;

  /** Starts the thread ahead of the first call, so its startup overlaps the caller's own work. */
  warmUp(): void {
    void this.#getWorker().catch(() => {});
  }

  async run(job: WorkerJob, context: ToolCallContext): Promise<unknown> {
    const signal = context.signal;
    if (signal?.aborted) throw signal.reason as Error;
    const worker = await this.#getWorker();
    if (signal?.aborted) throw signal.reason as Error;
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(signal!.reason as Error);
        void this.terminate();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          this.#pending.delete(id);
          if (this.#pending.size === 0) this.#worker?.unref();
          fn(value);
        };
      this.#pending.set(id, { worker, resolve: settle(resolve), reject: settle(reject) });
      worker.ref();
      worker.postMessage({ ...job, id } satisfies WorkerRequest);
    });
  }

  /**
   * Ends the thread (and fails any call still running in it). Not awaited: a thread is not a child
   * process and cannot outlive toolrun, and waiting for its exit would add ~20 ms to every run.
   */
  terminate(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
    return Promise.resolve();
  }

  #getWorker(): Promise<Worker> {
    if (this.#worker) return Promise.resolve(this.#worker);
    this.#starting ??= this.#startWorker().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #startWorker(): Promise<Worker> {
    // Loaded on first use: most runs start no worker, and the module costs ~8 ms to load.
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(resolveWorkerFile(`${this.#options.kind}-worker.js`), { stdout: true, stderr: true, resourceLimits: this.#options.resourceLimits });
    const diagnostics = this.#options.diagnostics ?? process.stderr;
    worker.stdout.pipe(diagnostics, { end: false });
    worker.stderr.pipe(diagnostics, { end: false });
    worker.on('message', (response: WorkerResponse) => {
      const pending = this.#pending.get(response.id);
      if (!pending) return;
      if (response.ok) pending.resolve(response.value);
      else pending.reject(Object.assign(new Error(response.error.message), { name: response.error.name }));
    });
    worker.on('error', (error: Error & { code?: string }) => this.#failAll(worker, describeWorkerError(error, this.#options)));
    worker.on('exit', () => this.#failAll(worker, new Error(`${this.#options.label} worker stopped unexpectedly`)));
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #failAll(worker: Worker, error: Error): void {
    if (this.#worker === worker) this.#worker = undefined;
    for (const pending of [...this.#pending.values()]) if (pending.worker === worker) pending.reject(error);
  }
}

function describeWorkerError(error: Error & { code?: string }, options: WorkerHostOptions): Error {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    const limit = options.resourceLimits?.maxOldGenerationSizeMb;
    return new Error(`ran out of memory${limit ? ` (limit ${limit} MB)` : ''}: the input is too large for ${options.label}`);
  }
  return error;
}

// Built, this code sits in dist/ (the CLI) or dist/lib/ (the library), and the workers in dist/.
// From source (tests) they are the built ones too: a thread cannot load TypeScript.
function resolveWorkerFile(file: string): URL {
  for (const folder of ['./', '../', '../../../dist/']) {
    const url = new URL(folder + file, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error(`dist/${file} is missing: run npm run build`);
}
