import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { oneLine } from '../connect/classify-attempt.js';
import { answerFailedPost, answerFailedResume, callIdsOf, watchForDrop, type LeftToResume } from '../../http/dropped-stream.js';
import { transportFetch } from '../../http/remote-fetch.js';
import { noteRemoteLoss, type RemoteLoss } from './remote-loss.js';

/**
 * How toolrun ended its Streamable HTTP session with a remote server. The spec's session
 * management: a client that no longer needs a session SHOULD send an HTTP DELETE with its
 * Mcp-Session-Id; a server MAY answer 405, meaning it does not let clients end sessions.
 */
export type SessionEnd =
  | { kind: 'ended'; sessionId: string; status: number }
  | { kind: 'not-allowed'; sessionId: string; status: 405 }
  /** The server gave no session id (stateless, as every 2026-07-28 exchange is): nothing to end. */
  | { kind: 'no-session' }
  | { kind: 'failed'; sessionId: string; reason: string };

/**
 * A DELETE is one small request; a server that has not answered it in a second is not going to
 * end the session sooner, and every command (Ctrl-C included) waits for it before it exits.
 */
export const SESSION_END_TIMEOUT_MS = 1000;

/** The status the session-ending DELETE got, per transport: the SDKs' terminateSession() does not say (2xx and 405 both resolve). */
const deleteStatuses = new WeakMap<object, { status?: number; statusText?: string }>();

/**
 * Creates an HTTP transport with a fetch that notes what its session-ending DELETE was answered,
 * and when its server is lost: a connection dropped while it owed answers fails those requests at
 * once with the reason (dropped-stream.ts), and the loss is noted for isConnectionLost.
 */
export function withDeleteStatus<T extends object>(create: (fetchFn: typeof fetch) => T): T {
  const noted: { status?: number; statusText?: string } = {};
  // The transport is made with the fetch: a loss is noted on it once it exists.
  const made: { transport?: T } = {};
  const onLost = (loss: RemoteLoss) => made.transport && noteRemoteLoss(made.transport, loss);
  // The requests of a dropped stream left to the SDK to resume: its resumption (a GET with
  // Last-Event-ID) carries them on, answers them if it fails to reach the server, and watches them.
  let leftToResume: LeftToResume | undefined;
  const onResumeLeft = (left: LeftToResume) => {
    leftToResume = left;
  };
  const transport = create(async (input, init) => {
    const resuming = init?.method === 'GET' && new Headers(init.headers).has('last-event-id') ? leftToResume : undefined;
    if (resuming) leftToResume = undefined;
    const ids = init?.method === 'POST' ? callIdsOf(init.body) : (resuming?.ids ?? []);
    // Every request of an HTTP transport goes here: redirects stay within the entry's origin (remote-fetch.ts).
    let response: Response;
    try {
      response = await transportFetch(input, init);
    } catch (error) {
      if (init?.method === 'GET') return answerFailedResume(error, resuming, onLost);
      return answerFailedPost(error, ids, onLost);
    }
    if (init?.method === 'DELETE') Object.assign(noted, { status: response.status, statusText: response.statusText });
    return watchForDrop(response, new URL(input instanceof Request ? input.url : String(input)), ids, onLost, onResumeLeft);
  });
  made.transport = transport;
  deleteStatuses.set(transport, noted);
  return transport;
}

/**
 * Ends the transport's session with an HTTP DELETE carrying its Mcp-Session-Id (the SDK's
 * terminateSession()), within SESSION_END_TIMEOUT_MS, and says what happened. Never throws: the
 * caller closes the transport afterwards either way (which also cancels a DELETE left unanswered).
 */
export async function endRemoteSession(transport: Transport): Promise<SessionEnd> {
  const sessionId = transport.sessionId;
  const terminate = (transport as { terminateSession?: () => Promise<void> }).terminateSession;
  if (!sessionId || !terminate) return { kind: 'no-session' };
  const noted = deleteStatuses.get(transport) ?? {};
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${SESSION_END_TIMEOUT_MS} ms`)), SESSION_END_TIMEOUT_MS);
  });
  try {
    await Promise.race([terminate.call(transport), unanswered]);
  } catch (error) {
    const reason = noted.status !== undefined ? `HTTP ${noted.status}${noted.statusText ? ` ${noted.statusText}` : ''}` : describeNetworkError(error);
    return { kind: 'failed', sessionId, reason };
  } finally {
    clearTimeout(timer);
  }
  if (noted.status === 405) return { kind: 'not-allowed', sessionId, status: 405 };
  return { kind: 'ended', sessionId, status: noted.status ?? 200 };
}

/** fetch says only "fetch failed"; its cause has the code (ECONNREFUSED, ECONNRESET). */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const message = oneLine(String((error as Error)?.message ?? error));
  return typeof cause?.code === 'string' ? `${message} (${cause.code})` : message;
}
