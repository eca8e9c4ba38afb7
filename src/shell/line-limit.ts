import { Transform, type TransformCallback } from 'node:stream';

const PASTE_END = Buffer.from('\x1b[201~');
/** Cut this far past the limit: escape sequences (a paste's start) count here but not in readline's line, which must still be over it. */
const CUT_SLACK = 1024;

/**
 * Between the terminal and readline: a line longer than `maxBytes` reaches readline cut just past
 * the limit (so the shell refuses it), and the rest of it is dropped here. readline echoes every
 * character it gets: a 1 MB paste would otherwise take the terminal many seconds to draw, for a
 * line the shell refuses anyway. The end of a bracketed paste is still passed, so readline leaves
 * paste mode.
 */
export class LineLimit extends Transform {
  #lineBytes = 0;
  /** Bytes of the line being dropped so far (0 when not dropping). */
  #dropped = 0;
  /** The real size of the last line cut here, for the refusal message. */
  lastCutBytes = 0;

  constructor(readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (byte === 0x0d || byte === 0x0a) {
        if (this.#dropped > 0) {
          this.lastCutBytes = this.#lineBytes;
          // The paste's end may have come in this dropped stretch: readline must see it.
          if (chunk.subarray(start, index).includes(PASTE_END)) this.push(PASTE_END);
          start = index;
        }
        this.#lineBytes = 0;
        this.#dropped = 0;
        continue;
      }
      this.#lineBytes++;
      if (this.#lineBytes === this.maxBytes + CUT_SLACK && this.#dropped === 0) {
        this.push(chunk.subarray(start, index + 1));
        start = index + 1;
        this.#dropped = 1;
      } else if (this.#dropped > 0) this.#dropped++;
    }
    if (this.#dropped > 0) {
      if (chunk.subarray(start).includes(PASTE_END)) this.push(PASTE_END);
    } else if (start < chunk.length) this.push(chunk.subarray(start));
    done();
  }
}
