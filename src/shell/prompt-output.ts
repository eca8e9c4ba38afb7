import { clearScreenDown, cursorTo, moveCursor, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * Output of an interactive shell, written above the line being typed: the typed line (and its
 * prompt) is cleared, the text written, then readline redraws prompt and line with the cursor where
 * it was — so a notification or a server's stderr line never breaks what the person is typing.
 */
export class PromptOutput {
  #rl: Interface | undefined;

  constructor(readonly output: NodeJS.WriteStream) {}

  attach(rl: Interface): void {
    this.#rl = rl;
    rl.once('close', () => (this.#rl = undefined));
  }

  /** Writes whole lines of text to `target` (stdout or stderr: the same terminal) above the prompt. */
  write(target: NodeJS.WritableStream, text: string): void {
    const rl = this.#rl;
    if (!rl) return void target.write(text);
    // From the cursor's row in a wrapped line up to its first row, then everything below is erased.
    moveCursor(this.output, 0, -rl.getCursorPos().rows);
    cursorTo(this.output, 0);
    clearScreenDown(this.output);
    target.write(text.endsWith('\n') ? text : `${text}\n`);
    // readline moves up by the rows it last drew before redrawing; those rows are ours now.
    (rl as unknown as { prevRows: number }).prevRows = 0;
    rl.prompt(true);
  }

  /** A stream for a Terminal: what it writes to `target` goes above the prompt; a TTY of the terminal's width. */
  streamFor(target: NodeJS.WriteStream): NodeJS.WriteStream {
    const write = (text: string) => this.write(target, text);
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        write(chunk.toString());
        done();
      },
    });
    Object.defineProperty(stream, 'isTTY', { value: target.isTTY });
    Object.defineProperty(stream, 'columns', { get: () => target.columns });
    return stream as unknown as NodeJS.WriteStream;
  }
}
