import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capResponseBody, MAX_MESSAGE_BYTES, MessageTooLargeError, messageLimitBytes } from '../../src/http/capped-body.js';
import { TRANSPORT_FAULT_CODE } from '../../src/protocol/transport-fault.js';

// Issue #31 item 8: an HTTP message is read up to a cap, as a stdio line is, and no further.
const sse = (events: string[]) => events.map((data) => `event: message\ndata: ${data}\n\n`).join('');
const response = (body: string, type = 'application/json') => new Response(body, { headers: { 'content-type': type } });

describe('capResponseBody', () => {
  it('a JSON body up to the cap is read; one byte more fails naming the cap', async () => {
    expect(await capResponseBody(response('x'.repeat(100)), 100).text()).toBe('x'.repeat(100));
    const over = capResponseBody(response('x'.repeat(101)), 100).text();
    await expect(over).rejects.toThrow(new MessageTooLargeError(100));
    await expect(capResponseBody(response('x'.repeat(101)), 100).text()).rejects.toThrow('the server sent a message of more than 100 bytes');
  });

  it('an event stream is capped per event: many small events pass, whole and unchanged', async () => {
    const body = sse([...Array(50)].map((_, index) => `{"n":${index},"pad":"${'p'.repeat(40)}"}`));
    expect(body.length).toBeGreaterThan(1000);
    expect(await capResponseBody(response(body, 'text/event-stream'), 100).text()).toBe(body);
    // CRLF and CR line ends count as the SSE rules say.
    const crlf = body.replace(/\n/g, '\r\n');
    expect(await capResponseBody(response(crlf, 'text/event-stream'), 100).text()).toBe(crlf);
  });

  it('an event over the cap: the stream fails, or (for a POST of requests) ends with a fault answer to each', async () => {
    const body = sse(['{"small":1}', `{"big":"${'b'.repeat(500)}"}`, '{"after":1}']);
    await expect(capResponseBody(response(body, 'text/event-stream'), 100).text()).rejects.toThrow(MessageTooLargeError);
    const answered = await capResponseBody(response(body, 'text/event-stream'), 100, { answerRequests: [7, 'x'] }).text();
    expect(answered).not.toContain('b'.repeat(101));
    expect(answered).not.toContain('after');
    const data = answered
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(data).toEqual([
      { small: 1 },
      { jsonrpc: '2.0', id: 7, error: { code: TRANSPORT_FAULT_CODE, message: new MessageTooLargeError(100).message } },
      { jsonrpc: '2.0', id: 'x', error: { code: TRANSPORT_FAULT_CODE, message: new MessageTooLargeError(100).message } },
    ]);
  });

  it('the limit is 10 MB unless TOOLRUN_MAX_MESSAGE_BYTES says otherwise', () => {
    expect(MAX_MESSAGE_BYTES).toBe(10 * 1024 * 1024);
    expect(messageLimitBytes({})).toBe(MAX_MESSAGE_BYTES);
    expect(messageLimitBytes({ TOOLRUN_MAX_MESSAGE_BYTES: '4096' })).toBe(4096);
    expect(messageLimitBytes({ TOOLRUN_MAX_MESSAGE_BYTES: 'lots' })).toBe(MAX_MESSAGE_BYTES);
    expect(new MessageTooLargeError(MAX_MESSAGE_BYTES).message).toContain('more than 10 MB');
  });
});

describe('capResponseBody over a real connection', () => {
  let server: Server;
  let url: string;
  /** Bytes the server managed to write before the client went away. */
  let written = 0;
  let closed: Promise<void>;
  beforeAll(async () => {
    server = createServer((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      closed = new Promise((resolve) => res.on('close', resolve));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // An endless body, as fast as the client reads it.
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('stops reading at the cap and closes the connection: an endless body costs the cap, not memory', async () => {
    const limit = 256 * 1024;
    await expect(capResponseBody(await fetch(url), limit).text()).rejects.toThrow(MessageTooLargeError);
    await closed;
    // What the kernel's buffers took on both sides, no more: far from endless.
    expect(written).toBeLessThan(limit + 8 * 1024 * 1024);
  });
});
