import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';

/**
 * `check-stdout --save PATH`: the session's raw stdout in PATH and its stderr in PATH.stderr,
 * written as the bytes arrive. Opened before the server starts, so a bad path is an error at once,
 * not after the session; written synchronously, so memory stays flat under a 200 MB flood and a
 * Ctrl-C keeps everything received so far. Each connect attempt is a new process: its capture
 * replaces the previous attempt's.
 */
export class CaptureFiles {
  readonly stdoutPath: string;
  readonly stderrPath: string;
  #stdoutFd: number | undefined;
  #stderrFd: number | undefined;
  stdoutBytes = 0;
  stderrBytes = 0;

  /** Throws the fs error (ENOENT, EACCES, EISDIR) when PATH cannot be written. */
  constructor(path: string) {
    this.stdoutPath = path;
    this.stderrPath = `${path}.stderr`;
    this.#stdoutFd = openSync(this.stdoutPath, 'w');
    try {
      this.#stderrFd = openSync(this.stderrPath, 'w');
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** A new attempt: start both files over. */
  restart(): void {
    if (this.#stdoutFd !== undefined) ftruncateSync(this.#stdoutFd, 0);
    if (this.#stderrFd !== undefined) ftruncateSync(this.#stderrFd, 0);
    this.stdoutBytes = 0;
    this.stderrBytes = 0;
  }

  writeStdout(chunk: Buffer): void {
    if (this.#stdoutFd === undefined) return;
    writeAll(this.#stdoutFd, chunk, this.stdoutBytes);
    this.stdoutBytes += chunk.length;
  }

  writeStderr(chunk: Buffer): void {
    if (this.#stderrFd === undefined) return;
    writeAll(this.#stderrFd, chunk, this.stderrBytes);
    this.stderrBytes += chunk.length;
  }

  close(): void {
    for (const fd of [this.#stdoutFd, this.#stderrFd]) if (fd !== undefined) closeSync(fd);
    this.#stdoutFd = undefined;
    this.#stderrFd = undefined;
  }
}

/** Positional writes: after a truncate, the next attempt's bytes start at 0 again. */
function writeAll(fd: number, chunk: Buffer, position: number): void {
  let written = 0;
  while (written < chunk.length) written += writeSync(fd, chunk, written, chunk.length - written, position + written);
}
