import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { typeSamplingReply } from '../../src/cli-support/typed-sampling-reply.js';

const params = {
  systemPrompt: 'Be brief.\x1b[2J',
  maxTokens: 40,
  messages: [
    { role: 'user' as const, content: { type: 'text' as const, text: 'What is 2+2?\nAnswer now.' } },
    { role: 'assistant' as const, content: { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' } },
  ],
};

async function typed(input: string) {
  let shown = '';
  const reply = await typeSamplingReply(params, 'calc', { input: Readable.from([input]), write: (text) => (shown += text) });
  return { reply, shown };
}

describe('typeSamplingReply (a person at the terminal answers sampling)', () => {
  it('shows the request, server text escaped, and reads the reply up to an empty line', async () => {
    const { reply, shown } = await typed('It is 4.\nSurely.\n\nnot read\n');
    expect(shown).toBe(
      [
        "server 'calc' asks for a model reply (sampling, at most 40 tokens):",
        '  system: Be brief.\\x1b[2J',
        '  user: What is 2+2?',
        '    Answer now.',
        '  assistant: [image image/png]',
        'Type the reply, then an empty line (an empty reply declines):',
        '',
      ].join('\n'),
    );
    expect(reply).toEqual({ role: 'assistant', content: { type: 'text', text: 'It is 4.\nSurely.' }, model: 'toolrun (typed at the terminal)', stopReason: 'endTurn' });
  });

  it('the end of input ends the reply too', async () => {
    expect((await typed('four')).reply?.content).toEqual({ type: 'text', text: 'four' });
  });

  it('an empty reply declines', async () => {
    expect((await typed('\nlater\n')).reply).toBeUndefined();
    expect((await typed('')).reply).toBeUndefined();
  });
});
