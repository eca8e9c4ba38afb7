/**
 * JSON-RPC error code of the answers toolrun's transports give, on the server's behalf, to requests
 * the server can no longer answer (it closed stdout, answered an id toolrun never sent, sent a line
 * or an HTTP message over the limit). The SDK rejects the request with it at once instead of waiting
 * for the timeout; the message says what happened.
 */
export const TRANSPORT_FAULT_CODE = -32098;

/** The fault answer to each request id. */
export function transportFaultAnswers(ids: ReadonlyArray<string | number>, reason: string): Array<{ jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } }> {
  return ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: TRANSPORT_FAULT_CODE, message: reason } }));
}
