import { transportFaultAnswers } from '../protocol/transport-fault.js';
import { currentEnv } from '../run-environment.js';

/**
 * The most toolrun reads of one message from a server: 10 MB, as for a stdio line
 * (process/line-splitter.ts; the TS SDK 1.x client's own buffer). Over HTTP, a message is a JSON body
 * or one SSE event: without a cap, a 400 MB `tools/list` was read whole (2.5 GB of memory).
 * TOOLRUN_MAX_MESSAGE_BYTES lowers or raises it (tests; a server whose answers are that large).
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export function messageLimitBytes(env: NodeJS.ProcessEnv = currentEnv()): number {
  const set = Number(env.TOOLRUN_MAX_MESSAGE_BYTES);
  return Number.isSafeInteger(set) && set > 0 ? set : MAX_MESSAGE_BYTES;
}

/** A message over the limit: the read stopped there and the connection was dropped. */
export class MessageTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`the server sent a message of more than ${describeBytes(limitBytes)} (toolrun's limit for one message, as for a stdio line); toolrun stopped reading it`);
    this.name = 'MessageTooLargeError';
    this.limitBytes = limitBytes;
  }
}

export interface CapOptions {
  /**
   * The ids of the requests the POST carried. An SDK transport reading an event stream takes a broken
   * stream for a disconnection and leaves its requests to their timeout, so an over-limit event ends
   * the stream with a transport-fault answer to each of them instead (as line-transport.ts does for
   * a stdio line over the limit): the call fails at once, with the reason.
   */
  answerRequests?: ReadonlyArray<string | number>;
}

/**
 * The response with its body read through a byte count. A JSON (or any other) body is one message;
 * an event stream's messages are its events, passed on whole (so a cut never hands on half an
 * event) and counted each on its own (so a long stream of small events goes on). Over `limitBytes`,
 * the body errors with MessageTooLargeError (or ends with the fault answers of `answerRequests`), and
 * the rest is never read: the upstream is cancelled, which closes the connection.
 */
export function capResponseBody(response: Response, limitBytes: number, options: CapOptions = {}): Response {
  if (!response.body) return response;
  const stream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const body = response.body.pipeThrough(stream ? eventCap(limitBytes, options.answerRequests ?? []) : bodyCap(limitBytes));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function bodyCap(limitBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      if (total > limitBytes) controller.error(new MessageTooLargeError(limitBytes));
      else controller.enqueue(chunk);
    },
  });
}

/** Events end at a blank line: `\n\n`, `\r\r` or `\r\n\r\n` (the SSE rules); each is passed on once whole. */
function eventCap(limitBytes: number, answerRequests: ReadonlyArray<string | number>): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let atLineStart = true;
  let afterCR = false;
  const overflow = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const error = new MessageTooLargeError(limitBytes);
    if (answerRequests.length === 0) return controller.error(error);
    // A CR alone may have ended the last event passed on: the fault answers start on a line of their own.
    const events = transportFaultAnswers(answerRequests, error.message).map((answer) => `\nevent: message\ndata: ${JSON.stringify(answer)}\n\n`);
    controller.enqueue(new TextEncoder().encode(events.join('')));
    controller.terminate();
  };
  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index]!;
        if (byte === LF && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = byte === CR;
        if (byte !== LF && byte !== CR) {
          atLineStart = false;
          continue;
        }
        if (!atLineStart) {
          atLineStart = true;
          continue;
        }
        // A blank line: the event up to here is whole.
        if (heldBytes + index + 1 - start > limitBytes) return overflow(controller);
        const whole = held.length === 0 ? chunk.subarray(start, index + 1) : concat([...held, chunk.subarray(start, index + 1)]);
        controller.enqueue(whole);
        held = [];
        heldBytes = 0;
        start = index + 1;
      }
      if (start < chunk.length) {
        held.push(chunk.subarray(start));
        heldBytes += chunk.length - start;
      }
      if (heldBytes > limitBytes) overflow(controller);
    },
    flush(controller) {
      if (heldBytes > 0) controller.enqueue(concat(held));
    },
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

const LF = 0x0a;
const CR = 0x0d;

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
