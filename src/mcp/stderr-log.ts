import { ByteTail } from '../process/byte-tail.js';
import { causeInStderrLine, type Cause, type CauseContext } from './failure-causes.js';

/** A line that looks like an error, for counting and for marking it in doctor's stderr step. */
export const ERROR_LIKE_LINE = /\b(error|exception|traceback|fatal|panic|ECONNREFUSED|EADDRINUSE|ENOENT|cannot find|failed|denied)\b/i;

/** How much of one unterminated line is kept while waiting for its end (a 200 MB line is one line). */
const PARTIAL_LIMIT = 64 * 1024;

/**
 * Everything a server wrote to stderr, read line by line as it arrives: every line is counted and
 * matched against the cause table (so a cause written before 30 lines of chatter is still found),
 * and the last 64 kB are kept to show. `onCause` hears each cause the first time it appears.
 */
export class StderrLog {
  readonly tail = new ByteTail();
  lineCount = 0;
  errorLikeCount = 0;
  readonly causes = new Map<string, Cause>();
  onCause?: (cause: Cause) => void;
  #partial = '';
  #partialOverflow = false;

  constructor(private readonly context: CauseContext = {}) {}

  push(chunk: Buffer): void {
    this.tail.push(chunk);
    const text = chunk.toString('utf8');
    let start = 0;
    for (let newline = text.indexOf('\n', start); newline !== -1; newline = text.indexOf('\n', start)) {
      this.#addToPartial(text.slice(start, newline));
      this.#endLine();
      start = newline + 1;
    }
    if (start < text.length) this.#addToPartial(text.slice(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#partial !== '' || this.#partialOverflow) this.#endLine();
  }

  /** The last `count` non-empty lines, each cut to `maxLength` characters for display. */
  lastLines(count: number, maxLength = 500): string[] {
    return this.tail.lastLines(count).map((line) => (line.length > maxLength ? `${line.slice(0, maxLength)}… (${line.length} characters)` : line));
  }

  #addToPartial(piece: string): void {
    if (this.#partial.length >= PARTIAL_LIMIT) {
      this.#partialOverflow = true;
      return;
    }
    this.#partial += piece.length > PARTIAL_LIMIT ? piece.slice(0, PARTIAL_LIMIT) : piece;
  }

  #endLine(): void {
    const line = this.#partial.replace(/\r$/, '');
    this.#partial = '';
    this.#partialOverflow = false;
    if (line.trim() === '') return;
    this.lineCount++;
    if (ERROR_LIKE_LINE.test(line.length > 2048 ? line.slice(0, 2048) : line)) this.errorLikeCount++;
    const cause = causeInStderrLine(line, this.context);
    if (cause && !this.causes.has(cause.id)) {
      this.causes.set(cause.id, cause);
      this.onCause?.(cause);
    }
  }
}
