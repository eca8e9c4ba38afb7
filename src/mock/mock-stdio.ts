import type { Faults } from './faults.js';
import type { Responder } from './mock-answers.js';
import { createMockSession } from './mock-session.js';

/** A line longer than this is not a message a client sends; it is refused and the mock keeps reading. */
const MAX_LINE_BYTES = 16 << 20;

/**
 * The mock over stdio: newline-delimited JSON-RPC on stdin and stdout, nothing else on stdout (but
 * the pollution a fault asks for). It ends when stdin ends, as a well-behaved server does.
 */
export function serveMockOverStdio(responder: Responder, faults: Faults, random: () => number, io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): Promise<number> {
  return new Promise((resolve) => {
    const session = createMockSession(responder, faults, random, {
      send: (message) => io.stdout.write(`${JSON.stringify(message)}\n`),
      pollute: (line) => io.stdout.write(`${line}\n`),
      exitMidCall: () => resolve(1),
    });
    let pending = Buffer.alloc(0);
    // Answers still being made (latency, slow-init): finished before the mock exits on end of input.
    const inFlight = new Set<Promise<void>>();
    const line = (bytes: Buffer) => {
      const text = bytes.toString('utf8').replace(/\r$/, '');
      if (text.trim() === '') return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        session.parseError();
        return;
      }
      // Requests are answered as they come; a slow one (latency, a hang) does not hold the next back.
      const handled = session.handle(message);
      inFlight.add(handled);
      void handled.finally(() => inFlight.delete(handled));
    };
    io.stdin.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let newline = pending.indexOf(10); newline !== -1; newline = pending.indexOf(10)) {
        line(pending.subarray(0, newline));
        pending = pending.subarray(newline + 1);
      }
      if (pending.length > MAX_LINE_BYTES) {
        pending = Buffer.alloc(0);
        session.parseError();
      }
    });
    io.stdin.on('end', () => {
      if (pending.length > 0) line(pending);
      // A hung call is never in flight (it is not answered at all); the cap is for the slowest latency fault.
      const cap = new Promise((done) => setTimeout(done, 10_000).unref());
      void Promise.race([Promise.allSettled([...inFlight]), cap]).then(() => resolve(0));
    });
  });
}
