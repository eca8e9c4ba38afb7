import type { SessionEnd } from '../mcp/transports/remote-session.js';
import type { SetStep } from './set-step.js';

/**
 * Step 8 of doctor for a remote server: what ending toolrun's session actually did. The session id
 * itself is not shown: while a session lives, its id is all it takes to use it.
 */
export function reportSessionEnd(transportKind: 'stdio' | 'http' | 'sse', ended: SessionEnd | undefined, ms: number, set: SetStep): void {
  if (transportKind === 'sse') return set('shutdown', 'skip', 'SSE transport: the event stream was closed (it has no session to end)', { data: { outcome: 'stream-closed', shutdown_ms: ms } });
  if (!ended || ended.kind === 'no-session') return set('shutdown', 'skip', 'the server gave no session id (stateless): nothing to close', { data: { outcome: 'no-session', shutdown_ms: ms } });
  if (ended.kind === 'ended')
    return set('shutdown', 'ok', `session ended: DELETE answered ${ended.status} (${ms} ms)`, { data: { outcome: 'session-ended', http_status: ended.status, shutdown_ms: ms } });
  if (ended.kind === 'not-allowed')
    return set('shutdown', 'ok', `the server does not let clients end sessions (DELETE answered 405, which the spec allows); it expires the session itself (${ms} ms)`, {
      data: { outcome: 'session-end-not-allowed', http_status: 405, shutdown_ms: ms },
    });
  set('shutdown', 'warn', `ending the session failed: DELETE with its Mcp-Session-Id got ${ended.reason} (${ms} ms); the session may stay open on the server`, {
    fix: 'answer DELETE with 2xx once the session is ended, or 405 if clients may not end sessions (Streamable HTTP, session management)',
    data: { outcome: 'session-end-failed', reason: ended.reason, shutdown_ms: ms },
  });
}
