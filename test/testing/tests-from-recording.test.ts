import { Readable } from 'node:stream';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { testsFromRecording } from '../../src/testing/tests-from-recording.js';

/** `test --from` writes validate: false exactly where toolrun's own check would refuse or change the recorded call (issue #47 item 3). */

const SUM_SCHEMA = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };
const ECHO_SCHEMA = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };

function recording(calls: Array<{ name: string; args: Record<string, unknown>; isError?: boolean }>, withList: boolean): Readable {
  const lines: unknown[] = [{ toolrun_recording: 1, server: 'everything', command: 'node server.js', started: '2026-12-02T05:00:00.000Z' }];
  const send = (message: unknown) => lines.push({ t: lines.length, dir: 'send', text: JSON.stringify({ jsonrpc: '2.0', ...(message as object) }) });
  const recv = (message: unknown) => lines.push({ t: lines.length, dir: 'recv', text: JSON.stringify({ jsonrpc: '2.0', ...(message as object) }) });
  if (withList) {
    send({ id: 'list', method: 'tools/list', params: {} });
    recv({
      id: 'list',
      result: {
        tools: [
          { name: 'get-sum', inputSchema: SUM_SCHEMA },
          { name: 'echo', inputSchema: ECHO_SCHEMA },
        ],
      },
    });
  }
  calls.forEach((call, index) => {
    send({ id: index, method: 'tools/call', params: { name: call.name, arguments: call.args } });
    recv({ id: index, result: { content: [{ type: 'text', text: call.isError ? 'refused' : 'ok' }], ...(call.isError ? { isError: true } : {}) } });
  });
  return Readable.from(lines.map((line) => `${JSON.stringify(line)}\n`));
}

const CALLS = [
  { name: 'get-sum', args: { a: 2, b: 3 } },
  { name: 'get-sum', args: { a: 'x', b: 1 }, isError: true },
  { name: 'get-sum', args: { a: '2', b: 3 } },
  { name: 'echo', args: { message: 36 }, isError: true },
  { name: 'no-such-tool', args: {}, isError: true },
  { name: 'echo', args: { message: 'hi' } },
];

const validated = async (withList: boolean) => {
  const suite = await testsFromRecording(recording(CALLS, withList), { source: 'session.rec' });
  return (parse(suite.text).tests as Array<{ name: string; validate?: boolean }>).map((test) => [test.name, test.validate ?? true]);
};

describe('test --from: validate: false where toolrun would not send the recorded call as it was', () => {
  it("against the session's tools/list: an unknown tool, refused arguments, and values toolrun would type", async () => {
    expect(await validated(true)).toEqual([
      ['call get-sum #1', true],
      ['call get-sum #2', false], // 'x' for a number: refused
      ['call get-sum #3', false], // "2" for a number: toolrun would send 2
      ['call echo #1', false], // 36 for a string: toolrun would send "36"
      ['call no-such-tool #1', false], // not listed
      ['call echo #2', true],
    ]);
  });

  it('without a tools/list in the recording: the calls the server answered with an error', async () => {
    expect(await validated(false)).toEqual([
      ['call get-sum #1', true],
      ['call get-sum #2', false],
      ['call get-sum #3', true],
      ['call echo #1', false],
      ['call no-such-tool #1', false],
      ['call echo #2', true],
    ]);
  });
});
