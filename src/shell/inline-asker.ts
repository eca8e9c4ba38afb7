import type { Interface } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { promptForm, promptUrl } from '../cli-support/prompt-elicitation.js';
import { typeSamplingReply } from '../cli-support/typed-sampling-reply.js';
import type { AskBack } from '../mcp/ask-back.js';
import type { PromptOutput } from './prompt-output.js';

/**
 * A server's questions during a call (SPEC §15), asked inline on the shell's own line editor: the
 * question becomes the prompt, the line typed is the answer (fed to the same field-by-field
 * elicitation prompt and typed sampling reply the CLI uses on a terminal). One readline owns the
 * terminal; a second one on the same stdin would fight it for every key.
 */
export class InlineAsker {
  #feed: PassThrough | undefined;
  /** The question now shown as the prompt (the unfinished last line written). */
  #question = '';

  constructor(
    readonly rl: Interface,
    readonly output: PromptOutput,
    readonly stderr: NodeJS.WriteStream,
  ) {}

  /** Is a question waiting for a line? Then the line typed is its answer, not a command. */
  get asking(): boolean {
    return this.#feed !== undefined;
  }

  answer(line: string): void {
    // readline has left the question on screen with its answer: it is drawn, not text still to write
    // (kept, the next field's lines would repeat it above the prompt).
    this.#question = '';
    this.#feed?.write(`${line}\n`);
  }

  readonly elicit: NonNullable<AskBack['elicit']> = (params, context) =>
    this.#ask((streams) => {
      const record = params as { mode?: unknown; url?: unknown; message: string };
      return record.mode === 'url' && typeof record.url === 'string'
        ? promptUrl(context.server, { message: record.message, url: record.url }, streams, context.signal)
        : promptForm(context.server, params as ElicitRequest['params'], streams, context.signal);
    });

  readonly sample: NonNullable<AskBack['sample']> = async (params, context) => {
    const reply = await this.#ask((streams) => typeSamplingReply(params, context.server, { input: streams.input, write: (text) => streams.output.write(text) }));
    if (!reply) throw Object.assign(new Error('the sampling request was declined at the shell'), { code: -1 });
    return reply;
  };

  async #ask<T>(body: (streams: { input: PassThrough; output: NodeJS.WritableStream }) => Promise<T>): Promise<T> {
    const feed = new PassThrough();
    this.#feed = feed;
    this.#question = '';
    // Whole lines go above the prompt; the unfinished last one is the question: it becomes the prompt.
    const output = new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        const lines = (this.#question + chunk.toString()).split('\n');
        this.#question = lines.pop()!;
        if (lines.length > 0) this.output.write(this.stderr, `${lines.join('\n')}\n`);
        this.rl.setPrompt(this.#question);
        this.rl.prompt(true);
        done();
      },
    });
    try {
      return await body({ input: feed, output });
    } finally {
      this.#feed = undefined;
      this.#question = '';
      feed.end();
      this.rl.setPrompt('');
    }
  }
}
