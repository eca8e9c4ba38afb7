/**
 * Splits a byte stream into lines at '\n', exactly as the MCP SDK's ReadBuffer does, keeping each
 * line's raw bytes and byte offset (the stdout-pollution checker reports both). A line longer than
 * `maxLineBytes` is passed on cut, flagged as oversize, rather than buffered without limit.
 */
export interface RawLine {
  /** The bytes between two newlines (without the '\n'). */
  bytes: Buffer;
  /** 1-based. */
  lineNumber: number;
  /** Offset of the line's first byte in the stream. */
  offset: number;
  /** The line ended with '\n' (false only for the last, unterminated line, see `end()`). */
  terminated: boolean;
  /** Longer than maxLineBytes; `bytes` holds its start only. */
  oversize: boolean;
  /** Full length in bytes. */
  length: number;
}

export class LineSplitter {
  #pending: Buffer[] = [];
  #pendingLength = 0;
  #lineNumber = 0;
  #offset = 0;
  #oversize = false;

  constructor(
    private readonly onLine: (line: RawLine) => void,
    private readonly maxLineBytes = 10 * 1024 * 1024,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let index = chunk.indexOf(10, start); index !== -1; index = chunk.indexOf(10, start)) {
      this.#append(chunk.subarray(start, index));
      this.#emit(true);
      start = index + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  /** Flushes a last line that had no newline. */
  end(): void {
    if (this.#pendingLength > 0 || this.#oversize) this.#emit(false);
  }

  #append(part: Buffer): void {
    if (part.length === 0) return;
    const room = this.maxLineBytes - this.#pendingLength;
    if (room <= 0 || this.#oversize) {
      // Keep counting, stop keeping: memory stays flat on a gigabyte line.
      this.#oversize = true;
      this.#skipped += part.length;
      return;
    }
    if (part.length > room) {
      this.#pending.push(part.subarray(0, room));
      this.#pendingLength += room;
      this.#oversize = true;
      this.#skipped += part.length - room;
      return;
    }
    this.#pending.push(part);
    this.#pendingLength += part.length;
  }

  #skipped = 0;

  #emit(terminated: boolean): void {
    const bytes = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending, this.#pendingLength);
    const length = this.#pendingLength + this.#skipped;
    this.#lineNumber++;
    this.onLine({ bytes, lineNumber: this.#lineNumber, offset: this.#offset, terminated, oversize: this.#oversize, length });
    this.#offset += length + (terminated ? 1 : 0);
    this.#pending = [];
    this.#pendingLength = 0;
    this.#skipped = 0;
    this.#oversize = false;
  }
}
