/**
 * A user's handler runs in a worker thread, whose stdout and stderr Node forwards to the main thread
 * asynchronously: lines arrive late, out of order with toolrun's own, or not at all when toolrun
 * exits first; and `fs.writeSync(1, …)` goes straight to the process's stdout, into `--json`.
 * Here every write of the thread, console and fd 1 alike, goes synchronously to fd 2 (SPEC §2:
 * stdout carries results only), in order, before the result is sent back.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const STDOUT_FD = 1;
const STDERR_FD = 2;

export function redirectOutputToStderr(): void {
  const writeToStderr = (chunk: unknown, encoding?: unknown): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    for (let written = 0; written < data.length;) written += fs.writeSync(STDERR_FD, data, written);
  };
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      writeToStderr(chunk, encoding);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') (done as () => void)();
      return true;
    }) as typeof stream.write;
  }
  // Direct descriptor writes: fd 1 becomes fd 2 (the module object is shared by `import fs` users).
  const redirect = (fd: unknown) => (fd === STDOUT_FD ? STDERR_FD : fd);
  const { writeSync, write, writeFileSync, appendFileSync } = fs;
  fs.writeSync = ((fd: number, ...rest: unknown[]) => (writeSync as (...args: unknown[]) => number)(redirect(fd), ...rest)) as typeof fs.writeSync;
  fs.write = ((fd: number, ...rest: unknown[]) => (write as (...args: unknown[]) => void)(redirect(fd), ...rest)) as typeof fs.write;
  fs.writeFileSync = ((file: unknown, ...rest: unknown[]) => (writeFileSync as (...args: unknown[]) => void)(redirect(file), ...rest)) as typeof fs.writeFileSync;
  fs.appendFileSync = ((file: unknown, ...rest: unknown[]) => (appendFileSync as (...args: unknown[]) => void)(redirect(file), ...rest)) as typeof fs.appendFileSync;
  // `import { writeSync } from 'node:fs'` binds to the ES module's export: update those too.
  syncBuiltinESMExports();
}
