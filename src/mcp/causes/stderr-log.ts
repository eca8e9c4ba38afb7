import { ByteTail } from '../../process/byte-tail.js';
import { causeInStderrLine, type Cause, type CauseContext } from './failure-causes.js';
import { maskKnownSecrets, maskThenCut } from '../../secrets/mask-secrets.js';

/** A line that looks like an error, for counting and for marking it in doctor's stderr step. */
export const ERROR_LIKE_LINE = /\b(error|exception|traceback|fatal|panic|ECONNREFUSED|EADDRINUSE|ENOENT|cannot find|failed|denied)\b/i;

/** An exception's name as Python, Java or JS write it ("ModuleNotFoundError:", "psycopg.OperationalError"): no word boundary before "Error". */
const EXCEPTION_NAME = /[a-z](?:Error|Exception)\b/;

/** A line that looks like an error, or names a known cause ("python3: No module named x" has no error word). */
export function isErrorLike(line: string, context: CauseContext = {}): boolean {
  const text = line.length > 2048 ? line.slice(0, 2048) : line;
  return ERROR_LIKE_LINE.test(text) || EXCEPTION_NAME.test(text) || causeInStderrLine(text, context) !== undefined;
}

/**
 * How many distinct error-like lines are kept to show besides the tail (issue #19 item 3): the
 * first ones, as the line that names the cause usually comes before the chatter that follows it.
 */
export const ERROR_LINES_KEPT = 10;

/** How much of one line is shown. */
const DISPLAY_LENGTH = 500;

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
  /** The first ERROR_LINES_KEPT distinct error-like lines, wherever they were written, shortened for display as lastLines does. */
  readonly errorLines: string[] = [];
  /** True when more distinct error-like lines came than were kept. */
  errorLinesCapped = false;
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
  lastLines(count: number, maxLength = DISPLAY_LENGTH): string[] {
    return this.tail.lastLines(count).map((line) => shorten(line, maxLength));
  }

  /** The kept error-like lines that are not among the last `count` lines (those are shown already). */
  errorLinesBefore(count: number): string[] {
    const shown = new Set(this.lastLines(count));
    return this.errorLines.filter((line) => !shown.has(line));
  }

  #addToPartial(piece: string): void {
    if (this.#partial.length >= PARTIAL_LIMIT) {
      this.#partialOverflow = true;
      return;
    }
    this.#partial += piece.length > PARTIAL_LIMIT ? piece.slice(0, PARTIAL_LIMIT) : piece;
  }

  #noteErrorLine(line: string): void {
    this.errorLikeCount++;
    const kept = shorten(line, DISPLAY_LENGTH);
    if (this.errorLines.includes(kept)) return;
    if (this.errorLines.length < ERROR_LINES_KEPT) this.errorLines.push(kept);
    else this.errorLinesCapped = true;
  }

  #endLine(): void {
    const line = this.#partial.replace(/\r$/, '');
    this.#partial = '';
    this.#partialOverflow = false;
    if (line.trim() === '') return;
    this.lineCount++;
    const cause = causeInStderrLine(line, this.context);
    const text = line.length > 2048 ? line.slice(0, 2048) : line;
    if (cause || ERROR_LIKE_LINE.test(text) || EXCEPTION_NAME.test(text)) this.#noteErrorLine(line);
    if (cause && !this.causes.has(cause.id)) {
      this.causes.set(cause.id, cause);
      this.onCause?.(cause);
    }
  }
}

/** A server's line as evidence: only the config's own secrets masked, and that before it is cut (maskThenCut). */
function shorten(line: string, maxLength: number): string {
  return line.length > maxLength ? `${maskThenCut(line, maxLength, '', maskKnownSecrets)}… (${line.length} characters)` : line;
}
