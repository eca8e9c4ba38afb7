import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { transportFaultAnswers } from '../../protocol/transport-fault.js';

export { TRANSPORT_FAULT_CODE } from '../../protocol/transport-fault.js';

type RequestId = string | number;

/**
 * The requests sent to a server and not answered yet, so that when the server can no longer answer
 * them, they are failed at once with the reason (SPEC §8), not left to their timeout.
 */
export class PendingRequests {
  readonly #pending = new Set<RequestId>();
  /** Requests toolrun cancelled: a late answer to one is expected, not a fault. */
  readonly #cancelled = new Set<RequestId>();

  /** Notes an outgoing message: a request starts waiting; a cancellation stops it waiting. */
  noteSent(message: JSONRPCMessage): void {
    const record = message as { id?: RequestId; method?: string; params?: { requestId?: RequestId } };
    if (record.method !== undefined && record.id !== undefined) this.#pending.add(record.id);
    else if (record.method === 'notifications/cancelled' && record.params?.requestId !== undefined && this.#pending.delete(record.params.requestId)) this.#cancelled.add(record.params.requestId);
  }

  /**
   * Notes an incoming message. Returns why the requests still waiting will not be answered when it
   * is an answer to an id toolrun never sent (a server that mangles ids) while some wait.
   */
  noteReceived(message: JSONRPCMessage): string | undefined {
    const response = message as { id?: RequestId | null; method?: string; error?: { message?: unknown } };
    if (response.method !== undefined || response.id === undefined) return undefined;
    if (response.id !== null && (this.#pending.delete(response.id) || this.#cancelled.delete(response.id))) return undefined;
    if (this.#pending.size === 0) return undefined;
    if (response.id === null) {
      const serverError = typeof response.error?.message === 'string' ? `: ${response.error.message}` : '';
      return `the server answered with an error for no request (id null)${serverError}; the request waiting for an answer will not get one`;
    }
    return `the server answered request id ${JSON.stringify(response.id)}, which toolrun never sent (its ids are mangled); the request waiting for an answer will not get one`;
  }

  /** An error answer, with `reason`, for every request still waiting; none wait afterwards. */
  failAll(reason: string): JSONRPCMessage[] {
    const ids = [...this.#pending];
    this.#pending.clear();
    return transportFaultAnswers(ids, reason);
  }
}
