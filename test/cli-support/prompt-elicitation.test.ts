import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptForm, promptUrl } from '../../src/cli-support/prompt-elicitation.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As on your badge' },
    age: { type: 'integer', minimum: 0 },
    plan: {
      type: 'string',
      oneOf: [
        { const: 'free', title: 'Free' },
        { const: 'pro', title: 'Pro' },
      ],
      default: 'free',
    },
    topics: { type: 'array', items: { type: 'string', enum: ['news', 'tips', 'offers'] } },
    subscribe: { type: 'boolean', default: false },
  },
  required: ['name', 'age'],
};

/** Fake terminal streams: `lines` typed in advance (answers may arrive before they are asked for). */
function streams(lines: string[], end = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  input.write(lines.map((line) => `${line}\n`).join(''));
  if (end) input.end();
  return { input, output, written: () => written };
}

describe('promptForm: a person answers an elicitation field by field', () => {
  it('marks required fields, shows defaults and numbered choices, types each answer, re-asks an invalid one', async () => {
    const io = streams(['', 'Ada', 'old', '-1', '36', '', '1,3', 'y']);
    const result = await promptForm('e', { message: 'Sign up', requestedSchema: SCHEMA } as never, io);
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', age: 36, plan: 'free', topics: ['news', 'offers'], subscribe: true } });
    const shown = io.written();
    expect(shown).toContain("server 'e' asks: Sign up");
    expect(shown).toContain('  As on your badge\nYour name*: ');
    expect(shown).toContain("  ✖ 'name' is required");
    expect(shown).toContain('age* (integer): ');
    expect(shown).toContain("  ✖ 'age' must be integer");
    expect(shown).toContain("  ✖ 'age' must be >= 0");
    expect(shown).toContain('  1) Free (free)\n  2) Pro (pro)\nplan (1-2) [free]: ');
    expect(shown).toContain('  1) news\n  2) tips\n  3) offers\ntopics (numbers or values, comma-separated): ');
    expect(shown).toContain('subscribe (y/n) [false]: ');
  });

  it(':decline and :cancel refuse; the end of input (Ctrl-D) cancels', async () => {
    expect(await promptForm('e', { message: 'm', requestedSchema: SCHEMA } as never, streams([':decline']))).toEqual({ action: 'decline' });
    expect(await promptForm('e', { message: 'm', requestedSchema: SCHEMA } as never, streams(['Ada', ':cancel']))).toEqual({ action: 'cancel' });
    expect(await promptForm('e', { message: 'm', requestedSchema: SCHEMA } as never, streams(['Ada']))).toEqual({ action: 'cancel' });
  });

  it('escapes server text: a message cannot clear the screen or retitle the window', async () => {
    const io = streams(['Ada', '3']);
    await promptForm('e', { message: 'Hi\u001b]0;pwned\u0007\u001b[2J', requestedSchema: SCHEMA } as never, io);
    expect(io.written()).toContain('asks: Hi\\x1b]0;pwned\\x07\\x1b[2J');
    expect(io.written()).not.toMatch(/[\x1b\x07]/);
  });

  it('URL mode: shows the URL, Enter accepts, :decline declines', async () => {
    const io = streams(['']);
    expect(await promptUrl('e', { message: 'Connect', url: 'https://example.com/x' }, io)).toEqual({ action: 'accept' });
    expect(io.written()).toContain("server 'e' asks you to open a URL: Connect\n\n  https://example.com/x\n");
    expect(await promptUrl('e', { message: 'Connect', url: 'https://example.com/x' }, streams([':decline']))).toEqual({ action: 'decline' });
  });

  it('Ctrl-C (the signal) ends the questions with cancel', async () => {
    const controller = new AbortController();
    const io = streams([], false);
    const asked = promptForm('e', { message: 'm', requestedSchema: SCHEMA } as never, io, controller.signal);
    setTimeout(() => controller.abort(), 10);
    expect(await asked).toEqual({ action: 'cancel' });
  });
});
