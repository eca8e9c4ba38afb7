import { describe, expect, it } from 'vitest';
import { messageReader } from '../../src/session/holder-protocol.js';

// Issue #19 item 14: the holder reads its socket in linear time, with a line limit, and a line that
// is not a request is reported, never passed on.
describe('messageReader', () => {
  // A re-scan of what came before at every chunk (the old reader) would copy and scan 30,720 × 15 MB
  // on average, 460 GB: minutes, which the test's timeout catches; linear, it takes a second. No clock is read.
  it('reads a 30 MB line arriving in 1 kB chunks in linear time (it was a quadratic re-scan)', () => {
    const messages: Array<Record<string, unknown>> = [];
    const read = messageReader((message) => messages.push(message));
    const line = Buffer.from(`${JSON.stringify({ id: 1, op: 'exec', args: { message: 'x'.repeat(30 * 1024 * 1024) } })}\n{"id":2,"op":"status"}\n`);
    for (let offset = 0; offset < line.length; offset += 1024) read(line.subarray(offset, offset + 1024));
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    expect((messages[0]!.args as { message: string }).message).toHaveLength(30 * 1024 * 1024);
  });

  it('a line over the limit ends the reading as soon as it is over, newline or not', () => {
    const messages: unknown[] = [];
    let tooLong = 0;
    const read = messageReader((message) => messages.push(message), { maxLineBytes: 100, onTooLong: () => tooLong++ });
    read(Buffer.from('{"id":1,"op":"status"}\n'));
    read(Buffer.alloc(60, 'a'));
    expect(tooLong).toBe(0);
    read(Buffer.alloc(60, 'a'));
    expect(tooLong).toBe(1);
    read(Buffer.from('\n{"id":2,"op":"status"}\n'));
    expect(messages).toEqual([{ id: 1, op: 'status' }]);
    expect(tooLong).toBe(1);
  });

  it('a line that is not a JSON object is reported, not passed on; the next line is read', () => {
    const messages: unknown[] = [];
    const problems: string[] = [];
    const read = messageReader((message) => messages.push(message), { onBadLine: (problem) => problems.push(problem) });
    read(Buffer.from('null\n1e999\n[]\n"x"\n{not json\n\n{"id":3,"op":"status"}\n'));
    expect(problems).toEqual([
      'a request must be a JSON object, got null',
      'a request must be a JSON object, got number',
      'a request must be a JSON object, got an array',
      'a request must be a JSON object, got string',
      'the line is not JSON',
    ]);
    expect(messages).toEqual([{ id: 3, op: 'status' }]);
  });

  it('a multi-byte character split between chunks is read whole', () => {
    const messages: Array<Record<string, unknown>> = [];
    const read = messageReader((message) => messages.push(message));
    const bytes = Buffer.from('{"id":1,"text":"é€😀"}\n');
    for (let offset = 0; offset < bytes.length; offset++) read(bytes.subarray(offset, offset + 1));
    expect(messages).toEqual([{ id: 1, text: 'é€😀' }]);
  });
});
