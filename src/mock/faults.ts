import { UsageError } from '../errors.js';

/**
 * `--fault SPEC` (SPEC §20): what a mock does wrong, on purpose, the same way for the same `--seed`.
 * Rates draw from one seeded generator in request order, so a run that sends the same requests in
 * the same order meets the same faults.
 */
export interface Faults {
  /** Each answer waits this long (ms). */
  latencyMs?: number;
  /** A tools/call, resources/read or prompts/get gets a JSON-RPC error with this probability (never the handshake or a list). */
  errorRate?: number;
  /** A tools/call result becomes an isError result with this probability. */
  isErrorRate?: number;
  /** The Nth tools/call (1-based) is never answered. */
  hangCall?: number;
  /** The process exits (or, over HTTP, the connection is cut) during the Nth tools/call. */
  exitCall?: number;
  /** A line that is not JSON-RPC is written to stdout before an answer, with this probability (stdio). */
  polluteRate?: number;
  /** initialize is answered this late (ms). */
  slowInitMs?: number;
  /** After initialized, and after each tools/call answer, this many notifications/tools/list_changed in a row. */
  listChangedStorm?: number;
  /** HTTP: every request is refused with 401 and a Bearer challenge. */
  unauthorized?: boolean;
  /** HTTP: the session is forgotten after this many requests (404 for its id). */
  sessionExpiresAfter?: number;
}

export const FAULT_NAMES = [
  'latency=MS',
  'error-rate=P',
  'is-error-rate=P',
  'hang[=N]',
  'exit-mid-call[=N]',
  'pollute-stdout[=P]',
  'slow-init=MS',
  'list-changed-storm[=N]',
  '401',
  'session-expired[=N]',
];

export function parseFaults(specs: string[]): Faults {
  const faults: Faults = {};
  for (const spec of specs
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean)) {
    const [name, value] = spec.split('=', 2) as [string, string | undefined];
    const wrong = (what: string): never => {
      throw new UsageError(`--fault ${spec}: ${what}`);
    };
    const count = (fallback: number) => {
      if (value === undefined) return fallback;
      if (!/^[1-9]\d{0,6}$/.test(value)) wrong('give a whole number from 1');
      return Number(value);
    };
    const ms = () => {
      if (value === undefined || !/^\d{1,7}$/.test(value)) wrong('give milliseconds, e.g. =200');
      return Number(value);
    };
    const rate = (fallback?: number) => {
      if (value === undefined && fallback !== undefined) return fallback;
      const number = Number(value);
      if (value === undefined || value === '' || !Number.isFinite(number) || number < 0 || number > 1) wrong('give a probability from 0 to 1, e.g. =0.2');
      return number;
    };
    switch (name) {
      case 'latency':
        faults.latencyMs = ms();
        break;
      case 'error-rate':
        faults.errorRate = rate();
        break;
      case 'is-error-rate':
        faults.isErrorRate = rate();
        break;
      case 'hang':
        faults.hangCall = count(1);
        break;
      case 'exit-mid-call':
        faults.exitCall = count(1);
        break;
      case 'pollute-stdout':
        faults.polluteRate = rate(1);
        break;
      case 'slow-init':
        faults.slowInitMs = ms();
        break;
      case 'list-changed-storm':
        faults.listChangedStorm = count(100);
        break;
      case '401':
        if (value !== undefined) wrong('takes no value');
        faults.unauthorized = true;
        break;
      case 'session-expired':
        faults.sessionExpiresAfter = count(3);
        break;
      default:
        throw new UsageError(`unknown fault '${name}'; faults: ${FAULT_NAMES.join(', ')}`);
    }
  }
  return faults;
}

/** mulberry32: a small, fast generator whose whole state is the seed, so `--seed N` repeats a run exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
