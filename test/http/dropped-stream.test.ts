import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { answerFailedPost, answerFailedResume, callIdsOf, watchForDrop, type LeftToResume } from '../../src/http/dropped-stream.js';
import type { RemoteLoss } from '../../src/mcp/transports/remote-loss.js';
import { TRANSPORT_FAULT_CODE } from '../../src/protocol/transport-fault.js';

// Issue 47 item 8: a POST's event stream that breaks off while it owes answers fails them at once.

const encoder = new TextEncoder();
/** An event stream that sends `events` one read at a time, then ends cleanly or errors as a dropped socket does. */
const stream = (events: string[], end: 'clean' | 'dropped') => {
  const left = [...events];
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const event = left.shift();
        if (event !== undefined) controller.enqueue(encoder.encode(event));
        else if (end === 'clean') controller.close();
        else controller.error(Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
};
const answer = (id: number, eventId?: string) => `${eventId ? `id: ${eventId}\n` : ''}event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n\n`;
const nowhere = new URL('http://127.0.0.1:9/mcp');
/** A URL whose port nothing listens on any more (the OS gave it, then it was closed). */
const closedUrl = (): Promise<URL> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(new URL(`http://127.0.0.1:${port}/mcp`)));
    });
  });
const dataOf = (text: string) => [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!));

describe('watchForDrop', () => {
  it('a dropped stream owing answers ends with a fault answer to each request still waiting, and notes the loss', async () => {
    const losses: RemoteLoss[] = [];
    const text = await watchForDrop(stream([answer(1)], 'dropped'), nowhere, [1, 2], (loss) => losses.push(loss)).text();
    const reason = 'the server closed the connection before answering (other side closed, UND_ERR_SOCKET)';
    expect(dataOf(text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: TRANSPORT_FAULT_CODE, message: reason } },
    ]);
    expect(losses).toEqual([{ kind: 'dropped', reason }]);
  });

  it("a clean end is the server's choice (it may be resumed): nothing is added", async () => {
    const losses: RemoteLoss[] = [];
    expect(await watchForDrop(stream([], 'clean'), nowhere, [1], (loss) => losses.push(loss)).text()).toBe('');
    expect(losses).toEqual([]);
  });

  it('a drop after every answer arrived, or with no request waiting, stays the error it was', async () => {
    const losses: RemoteLoss[] = [];
    await expect(watchForDrop(stream([answer(1)], 'dropped'), nowhere, [1], (loss) => losses.push(loss)).text()).rejects.toThrow('terminated');
    await expect(watchForDrop(stream([], 'dropped'), nowhere, [], (loss) => losses.push(loss)).text()).rejects.toThrow('terminated');
    expect(losses).toEqual([]);
  });

  it('a resumable stream (event ids) is failed when nothing listens at the address, left to resume when something does', async () => {
    const losses: RemoteLoss[] = [];
    const failed = await watchForDrop(stream([': primed\nid: e1\ndata:\n\n'], 'dropped'), await closedUrl(), [7], (loss) => losses.push(loss)).text();
    expect(dataOf(failed).at(-1)).toMatchObject({ id: 7, error: { code: TRANSPORT_FAULT_CODE, message: expect.stringMatching(/\) and no longer accepts connections$/) } });
    const listening: Server = await new Promise((resolve) => {
      const server = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1', () => resolve(server));
    });
    try {
      const url = new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`);
      const left: LeftToResume[] = [];
      await expect(
        watchForDrop(
          stream(['id: e1\ndata:\n\n'], 'dropped'),
          url,
          [7],
          (loss) => losses.push(loss),
          (each) => left.push(each),
        ).text(),
      ).rejects.toThrow('terminated');
      // What the resumption carries on: the requests still owed, and how the stream dropped.
      expect(left).toEqual([{ ids: [7], reason: 'other side closed, UND_ERR_SOCKET' }]);
    } finally {
      listening.close();
    }
    expect(losses).toHaveLength(1);
  });
});

describe('answerFailedResume', () => {
  const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });

  it("a resumption refused (the server was still exiting when the drop was probed): the stream's requests get fault answers on an event stream", async () => {
    const losses: RemoteLoss[] = [];
    const response = answerFailedResume(refused, { ids: [7, 8], reason: 'other side closed, UND_ERR_SOCKET' }, (loss) => losses.push(loss));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reason = 'the server closed the connection before answering (other side closed, UND_ERR_SOCKET) and no longer accepts connections';
    expect(dataOf(await response.text())).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: TRANSPORT_FAULT_CODE, message: reason } },
      { jsonrpc: '2.0', id: 8, error: { code: TRANSPORT_FAULT_CODE, message: reason } },
    ]);
    expect(losses).toEqual([{ kind: 'dropped', reason }]);
  });

  it('anything else is rethrown for the SDK to retry: no request left, another error', () => {
    const losses: RemoteLoss[] = [];
    expect(() => answerFailedResume(refused, undefined, (loss) => losses.push(loss))).toThrow(refused);
    expect(() => answerFailedResume(refused, { ids: [], reason: 'x' }, (loss) => losses.push(loss))).toThrow(refused);
    const reset = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    expect(() => answerFailedResume(reset, { ids: [1], reason: 'x' }, (loss) => losses.push(loss))).toThrow(reset);
    expect(losses).toEqual([]);
  });
});

describe('answerFailedPost and callIdsOf', () => {
  it('a socket dropped before the answer: a JSON fault answer per request; refused: noted and rethrown', async () => {
    const losses: RemoteLoss[] = [];
    const dropped = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(await answerFailedPost(dropped, [3], (loss) => losses.push(loss)).json()).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: TRANSPORT_FAULT_CODE, message: 'the server closed the connection before answering (other side closed, UND_ERR_SOCKET)' } },
    ]);
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    expect(() => answerFailedPost(refused, [4], (loss) => losses.push(loss))).toThrow(refused);
    expect(losses).toEqual([
      { kind: 'dropped', reason: expect.any(String) },
      { kind: 'refused', reason: "nothing answers at the server's address any more (connect ECONNREFUSED 127.0.0.1:9)" },
    ]);
    // An abort, or a POST of notifications only, is not a loss.
    expect(() => answerFailedPost(new DOMException('aborted', 'AbortError'), [5], (loss) => losses.push(loss))).toThrow('aborted');
    expect(() => answerFailedPost(dropped, [], (loss) => losses.push(loss))).toThrow(dropped);
    expect(losses).toHaveLength(2);
  });

  it("the handshake's requests are not watched: a failed connect is diagnosed as such", () => {
    expect(callIdsOf(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }))).toEqual([]);
    expect(
      callIdsOf(
        JSON.stringify([
          { jsonrpc: '2.0', id: 2, method: 'tools/call' },
          { jsonrpc: '2.0', method: 'notifications/progress' },
        ]),
      ),
    ).toEqual([2]);
  });
});
