import type { Faults } from './faults.js';
import type { MockAnswer, Responder } from './mock-answers.js';

/** Where a mock session's messages go: the transport's business (a stdout line, an HTTP response). */
export interface MockOutput {
  /** An answer to the request `id`, or a notification (no id). */
  send(message: Record<string, unknown>, id?: string | number | null): void;
  /** `--fault pollute-stdout`: a line that is not JSON-RPC (stdio only). */
  pollute?(line: string): void;
  /** `--fault exit-mid-call`: end the way a crashing server does, in the middle of the call. */
  exitMidCall(): void;
}

type Incoming = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
/**
 * The requests `error-rate` falls on: calls, reads and prompt gets. Never the handshake
 * (initialize, server/discover), ping or the lists a client makes while connecting, so a seeded
 * mock always lets a client connect and the faults land on the work it then does.
 */
const RATE_FAULTED = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * One client's conversation with a mock: each request answered from the responder, with the faults
 * applied in a fixed order per request (so the same requests meet the same faults for one seed).
 * `handle` resolves once the request is answered (or, for a hang, never answered).
 */
export function createMockSession(responder: Responder, faults: Faults, random: () => number, output: MockOutput) {
  let calls = 0;
  const cancelled = new Set<string>();
  const reply = (id: string | number | null, answer: MockAnswer) => output.send({ jsonrpc: '2.0', id, ...answer }, id);
  // `list-changed-storm`: after the handshake and after each tools/call answer, N list changes in a row.
  const storm = () => {
    for (let index = 0; index < faults.listChangedStorm!; index++) output.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  };
  return {
    /** A line (stdio) or a body (HTTP) that is not JSON. */
    parseError(): void {
      reply(null, { error: { code: PARSE_ERROR, message: 'Parse error' } });
    },
    async handle(message: unknown): Promise<void> {
      if (typeof message !== 'object' || message === null || Array.isArray(message) || (message as Incoming).jsonrpc !== '2.0') {
        reply(null, { error: { code: INVALID_REQUEST, message: 'Invalid Request: one JSON-RPC 2.0 object per message' } });
        return;
      }
      const { id, method, params } = message as Incoming;
      const isRequest = typeof id === 'string' || typeof id === 'number';
      if (typeof method !== 'string') {
        if (isRequest && !('result' in message) && !('error' in message)) reply(id, { error: { code: INVALID_REQUEST, message: 'Invalid Request: no method' } });
        return; // a client's answer to a request the mock never sends
      }
      if (!isRequest) {
        if (method === 'notifications/initialized' && faults.listChangedStorm) storm();
        // A cancelled request is not answered (the spec: a receiver SHOULD NOT respond to it).
        if (method === 'notifications/cancelled') {
          const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
          if (typeof requestId === 'string' || typeof requestId === 'number') cancelled.add(String(requestId));
        }
        return;
      }
      const isCall = method === 'tools/call';
      if (isCall) calls += 1;
      if (isCall && faults.hangCall === calls) return;
      if (isCall && faults.exitCall === calls) return output.exitMidCall();
      const wait = (method === 'initialize' ? (faults.slowInitMs ?? 0) : 0) + (faults.latencyMs ?? 0);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      let answer: MockAnswer;
      if (RATE_FAULTED.has(method) && faults.errorRate !== undefined && random() < faults.errorRate) {
        answer = { error: { code: INTERNAL_ERROR, message: 'toolrun mock fault: an injected error (--fault error-rate)' } };
      } else {
        answer = await responder(method, typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined).catch(
          // A snapshot's schema that cannot be compiled (a dangling $ref): this request fails, the mock goes on.
          (error: unknown): MockAnswer => ({ error: { code: INTERNAL_ERROR, message: `toolrun mock: ${(error as Error).message}` } }),
        );
        if (isCall && 'result' in answer && faults.isErrorRate !== undefined && random() < faults.isErrorRate) {
          answer = { result: { content: [{ type: 'text', text: 'toolrun mock fault: an injected tool error (--fault is-error-rate)' }], isError: true } };
        }
      }
      if (output.pollute && faults.polluteRate !== undefined && random() < faults.polluteRate) output.pollute(`toolrun mock: a stray line before the answer to ${method} (--fault pollute-stdout)`);
      if (cancelled.delete(String(id))) return;
      reply(id, answer);
      if (isCall && faults.listChangedStorm) storm();
    },
  };
}
