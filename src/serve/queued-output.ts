import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What may wait in memory for a client that does not read. Over stdio the SDK's transport waits for
 * 'drain' per message, but answers to requests in flight are written each on its own, so a client that
 * sends requests and stops reading made toolrun hold every answer. Over HTTP the SDK's event streams
 * queue whatever the session sends while the client does not read. Past this, the session is closed.
 */
export const MAX_QUEUED_OUTPUT_BYTES = 64 << 20;

/** `stream` with its write checked: once more than MAX_QUEUED_OUTPUT_BYTES wait unwritten, `onOverflow` (once). */
export function capQueuedOutput(stream: NodeJS.WritableStream, onOverflow: () => void): NodeJS.WritableStream {
  let overflowed = false;
  const write = (...args: unknown[]) => {
    if (overflowed) return false;
    const ok = (stream.write as (...args: unknown[]) => boolean)(...args);
    if (!ok && ((stream as { writableLength?: number }).writableLength ?? 0) > MAX_QUEUED_OUTPUT_BYTES) {
      overflowed = true;
      onOverflow();
    }
    return ok;
  };
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The connections of one HTTP session, with what waits unwritten in them counted together. The SDK
 * writes a stream through @hono/node-server, which stops taking from the stream when a write says
 * "full" and waits for 'drain': what a client does not read would pile up in the SDK's stream queue,
 * where nothing can measure it. So each write here says "go on", and the bytes wait in the connection
 * instead (the same memory, now counted in the socket's writableLength, where an answer already ended
 * also waits until the client reads it). Past `maxBytes` for the session, `onOverflow` runs, once.
 */
export function sessionOutputCap(maxBytes: number, onOverflow: (queuedBytes: number) => void): { watch(response: ServerResponse): void; destroyUnread(): void } {
  const sockets = new Set<Socket>();
  let overflowed = false;
  const queued = () => {
    let bytes = 0;
    for (const socket of sockets) bytes += socket.writableLength;
    return bytes;
  };
  return {
    watch(response) {
      const socket = response.socket;
      if (socket && !sockets.has(socket)) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      }
      const write = response.write.bind(response) as (...args: unknown[]) => boolean;
      response.write = ((...args: unknown[]) => {
        if (overflowed || response.destroyed) return false;
        if (write(...args)) return true;
        const bytes = queued() + (socket ? 0 : response.writableLength);
        if (bytes > maxBytes) {
          overflowed = true;
          onOverflow(bytes);
          return false;
        }
        return true;
      }) as ServerResponse['write'];
    },
    destroyUnread() {
      // Only the connections holding what was not read: the others may carry another session's next request.
      for (const socket of sockets) if (socket.writableLength > 0) socket.destroy();
      sockets.clear();
    },
  };
}
