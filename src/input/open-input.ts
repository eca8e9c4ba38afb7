import { constants, createReadStream, openSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { ToolrunError } from '../errors.js';

/** Up to this much is read for `--args @file`, `--args -` and a config file (SPEC §8). */
export const INPUT_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A stream over a file, a FIFO or a device, that never blocks a thread. A FIFO opened the usual way
 * blocks in open() until a writer comes, inside libuv's thread pool, where no signal reaches it and
 * even process.exit() waits for it: opened non-blocking and read through the event loop instead,
 * Ctrl-C works while it waits.
 */
export async function openInput(path: string, highWaterMark?: number): Promise<Readable> {
  const stats = statSync(path);
  if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path} is a folder`), { code: 'EISDIR' });
  if (stats.isFIFO() || stats.isSocket()) {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    // Loaded here only: node:net costs startup time every other run would pay.
    const { Socket } = await import('node:net');
    return new Socket({ fd, readable: true, writable: false });
  }
  return createReadStream(path, highWaterMark ? { highWaterMark } : {});
}

/** Thrown by readBounded when the input is longer than its limit. */
export class InputTooLargeError extends ToolrunError {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super('usage', `more than ${limitBytes >= 1 << 20 ? `${Math.round(limitBytes / (1 << 20))} MB` : `${limitBytes} bytes`}`);
    this.name = 'InputTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/**
 * All of a stream as text, up to `limitBytes` (then InputTooLargeError: `/dev/zero` ends there, not
 * in an out-of-memory crash). `signal` ends the read at once (Ctrl-C on a FIFO nobody writes to).
 */
export async function readBounded(stream: Readable, limitBytes: number, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      stream.removeListener('data', onData);
      if (error !== undefined) {
        stream.destroy();
        reject(error);
      } else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onAbort = () => finish(signal!.reason);
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limitBytes) return finish(new InputTooLargeError(limitBytes));
      chunks.push(buffer);
    };
    if (signal?.aborted) return finish(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    stream.once('end', () => finish());
    stream.once('error', (error) => finish(error));
  });
}
