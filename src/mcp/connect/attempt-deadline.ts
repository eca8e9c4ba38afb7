import { existsSync } from 'node:fs';
import type { Cause } from '../causes/failure-causes.js';
import { readRunnerPhase, type PackageRunner } from './package-runner.js';

/** Why toolrun stopped waiting for a server's answer to initialize. */
export type AttemptStop = { kind: 'timeout'; ms: number } | { kind: 'install-timeout'; ms: number; runner: PackageRunner } | { kind: 'cause'; cause: Cause } | { kind: 'interrupted'; reason: unknown };

export interface AttemptDeadlineOptions {
  connectTimeoutMs: number;
  installTimeoutMs: number;
  /** Ctrl-C and the like: stops the attempt at once. */
  outer?: AbortSignal;
  /** Set for npx-style commands: the install phase is not counted against connectTimeoutMs. */
  runner?: { info: PackageRunner; pid: () => number | undefined };
  /** The runner has been installing for a while: say so (once). */
  onInstalling?: (runner: PackageRunner) => void;
  /** How long a server that named its cause in stderr still gets to answer (default 1000 ms). */
  causeGraceMs?: number;
}

const POLL_MS = 200;
/** A warm npx cache starts the server within a few hundred ms: only a longer install is announced. */
const ANNOUNCE_INSTALL_AFTER_MS = 1000;
const CAN_READ_PROCESSES = existsSync('/proc/self/stat');

/**
 * The deadline of one connection attempt, as an AbortSignal for the SDK's initialize request.
 * The connect timeout counts from when the server itself runs: while an npx-style runner is still
 * installing the package (seen in the process tree), the separate install timeout applies, so a
 * cold cache is never killed mid-install as if the server hung (SPEC §8). A cause named in stderr
 * that means "this server will not answer" ends the wait after a short grace (SPEC §9).
 */
export class AttemptDeadline {
  readonly #controller = new AbortController();
  readonly #options: AttemptDeadlineOptions;
  readonly #startedAt = Date.now();
  readonly #timers: NodeJS.Timeout[] = [];
  #runningSince: number | undefined;
  #markRunning!: () => void;
  /** Resolves once the server itself runs (at once, unless an npx-style runner is still installing it). */
  readonly running = new Promise<void>((resolve) => (this.#markRunning = resolve));
  #announced = false;
  #onOuterAbort = () => this.#stop({ kind: 'interrupted', reason: this.#options.outer?.reason });
  stop: AttemptStop | undefined;

  constructor(options: AttemptDeadlineOptions) {
    this.#options = options;
    if (options.outer?.aborted) this.#onOuterAbort();
    else options.outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
    if (options.runner && CAN_READ_PROCESSES) {
      this.#timers.push(setInterval(() => this.#pollRunner(), POLL_MS));
      this.#timers.push(setInterval(() => this.#checkTimeouts(), POLL_MS));
    } else {
      this.#runningSince = this.#startedAt;
      this.#markRunning();
      this.#timers.push(setTimeout(() => this.#stop({ kind: 'timeout', ms: options.connectTimeoutMs }), options.connectTimeoutMs));
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once an npx-style runner was seen installing for longer than a warm start takes. */
  get sawInstall(): boolean {
    return this.#announced;
  }

  /** The connect timeout as it applies now (for the SDK's own backstop). */
  get backstopMs(): number {
    return this.#options.installTimeoutMs + this.#options.connectTimeoutMs + 1000;
  }

  /** A cause seen in stderr: a server that says it cannot work gets a short grace, not the full timeout. */
  noteCause(cause: Cause): void {
    if (!cause.endsAttempt || this.stop) return;
    const timer = setTimeout(() => this.#stop({ kind: 'cause', cause }), this.#options.causeGraceMs ?? 1000);
    this.#timers.push(timer);
  }

  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#options.outer?.removeEventListener('abort', this.#onOuterAbort);
  }

  #pollRunner(): void {
    const pid = this.#options.runner!.pid();
    if (pid === undefined || this.#runningSince !== undefined) return;
    if (readRunnerPhase(this.#options.runner!.info, pid) === 'running') {
      this.#runningSince = Date.now();
      this.#markRunning();
      return;
    }
    if (!this.#announced && Date.now() - this.#startedAt >= ANNOUNCE_INSTALL_AFTER_MS) {
      this.#announced = true;
      this.#options.onInstalling?.(this.#options.runner!.info);
    }
  }

  #checkTimeouts(): void {
    const now = Date.now();
    const { connectTimeoutMs, installTimeoutMs, runner } = this.#options;
    if (this.#runningSince !== undefined) {
      if (now - this.#runningSince >= connectTimeoutMs) this.#stop({ kind: 'timeout', ms: connectTimeoutMs });
    } else if (now - this.#startedAt >= installTimeoutMs) this.#stop({ kind: 'install-timeout', ms: installTimeoutMs, runner: runner!.info });
  }

  #stop(stop: AttemptStop): void {
    if (this.stop) return;
    this.stop = stop;
    this.dispose();
    this.#controller.abort(new Error(`attempt stopped: ${stop.kind}`));
  }
}
