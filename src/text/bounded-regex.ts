import { Worker } from 'node:worker_threads';

/**
 * Regular expressions toolrun did not write (a test file's `matches:`, a server's or a test file's
 * JSON Schema `pattern`) run here, in a worker thread, under a time limit. JavaScript's engine
 * backtracks: `(.*a){30}` against a long text runs for hours and, on the main thread, nothing else
 * runs meanwhile — no step timeout, no SIGTERM handler. The main thread waits for the answer with
 * Atomics.wait (so callers stay synchronous, as Ajv's `code.regExp` engine must be) and, past the
 * limit, terminates the worker (V8 interrupts a running regexp on termination) and says so.
 * Node has no linear-time engine without a native build (re2), and V8's experimental one does not
 * take the `u` flag, so the worker is the bound.
 */

/** How long one test of one text may take. A real pattern on a real answer takes microseconds. */
export const REGEX_TIME_LIMIT_MS = 1000;

export class RegexTimeoutError extends Error {
  constructor(pattern: string, textLength: number, limitMs: number) {
    super(`the regular expression /${pattern}/ ran over ${limitMs} ms on ${textLength} characters and was stopped (it backtracks: make it simpler)`);
    this.name = 'RegexTimeoutError';
  }
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const answer = new Int32Array(workerData);
const compiled = new Map();
parentPort.on('message', ({ pattern, flags, text }) => {
  let result;
  try {
    const key = flags + '/' + pattern;
    let regex = compiled.get(key);
    if (!regex) {
      if (compiled.size > 500) compiled.clear();
      regex = new RegExp(pattern, flags);
      compiled.set(key, regex);
    }
    regex.lastIndex = 0;
    result = regex.test(text) ? 1 : 2;
  } catch {
    result = 3;
  }
  Atomics.store(answer, 0, result);
  Atomics.notify(answer, 0);
});
`;

let running: { worker: Worker; answer: Int32Array } | undefined;

function worker(): { worker: Worker; answer: Int32Array } {
  if (running) return running;
  const shared = new SharedArrayBuffer(4);
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: shared, stdout: true, stderr: true });
  // Waiting for no one: a run ends whether or not the worker is idle.
  started.unref();
  started.on('error', () => {
    if (running?.worker === started) running = undefined;
  });
  running = { worker: started, answer: new Int32Array(shared) };
  return running;
}

/** Starts the worker ahead of its first test (it takes ~30 ms), so that test's limit is the regex's own. */
export function warmRegexWorker(): void {
  worker();
}

/**
 * `new RegExp(pattern, flags).test(text)`, stopped after `limitMs`: a RegexTimeoutError then. A
 * pattern that does not parse throws its SyntaxError here, as `new RegExp` would.
 */
export function boundedRegexTest(pattern: string, flags: string, text: string, limitMs = REGEX_TIME_LIMIT_MS): boolean {
  new RegExp(pattern, flags);
  const current = worker();
  Atomics.store(current.answer, 0, 0);
  current.worker.postMessage({ pattern, flags, text });
  const waited = Atomics.wait(current.answer, 0, 0, limitMs);
  const result = Atomics.load(current.answer, 0);
  if (waited === 'timed-out' && result === 0) {
    void current.worker.terminate();
    running = undefined;
    throw new RegexTimeoutError(pattern, text.length, limitMs);
  }
  if (result === 3) throw new Error(`the regular expression /${pattern}/ failed on the text`);
  return result === 1;
}

/** Texts up to this long are tested on the main thread by a pattern that backtracks little (below). */
const INLINE_TEXT_CHARS = 10_000;

/**
 * A pattern that cannot backtrack badly: no quantifier on a group (the star height of the classic
 * catastrophic cases, `(a+)+`, `(.*a){30}`), no backreference, and at most one unbounded quantifier,
 * so its work on a text of n characters is at most n² steps (10⁸ at the inline bound, well under a
 * second). Miscounts only ever count more quantifiers than there are (a `*` in a class counts), so a
 * doubtful pattern goes to the worker. The common schema patterns (`^[a-z0-9-]+$`, a date, an id) pass,
 * and skip the worker's ~30 ms start and its round trip per test.
 */
export function backtracksLittle(pattern: string): boolean {
  if (/\\[1-9]|\\k</.test(pattern)) return false;
  if (/\)[*+?{]/.test(pattern)) return false;
  const unbounded = pattern.match(/[*+]|\{\d*,\}/g)?.length ?? 0;
  return unbounded <= 1;
}

/**
 * The same, as Ajv's `code.regExp` engine (ajv.js.org/options.html#code: "Pass non-standard RegExp
 * engine to mitigate ReDoS"): a schema's `pattern` and `patternProperties` are tested in the worker.
 * A pattern over the limit throws out of the validation, which callers report as a failed check.
 */
export const boundedRegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const compiled = new RegExp(pattern, flags);
    const inline = backtracksLittle(pattern);
    return {
      test: (text: string) => {
        if (!inline || text.length > INLINE_TEXT_CHARS) return boundedRegexTest(pattern, flags, text);
        compiled.lastIndex = 0;
        return compiled.test(text);
      },
    };
  },
  // Only for Ajv's standalone code, which toolrun generates with its own options (scripts/generate-validators.js).
  { code: 'boundedRegExpEngine' },
);
