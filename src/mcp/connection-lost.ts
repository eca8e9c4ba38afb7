import { remoteLoss } from './transports/remote-loss.js';
import type { ServerConnection } from './server-connection.js';

// Its own file: `toolrun time` and the session holder ask it at startup, without loading the tool runner.
/** True once the server behind this connection is gone: no later call can succeed. */
export function isConnectionLost(connection: ServerConnection): boolean {
  if (connection.stdio) return connection.stdio.exitInfo !== undefined || connection.stdio.fault !== undefined;
  // Over HTTP: its connection dropped mid-answer, or a request found nothing listening (remote-session.ts).
  return (remoteLoss(connection.client?.transport?.inner) ?? remoteLoss(connection.transport)) !== undefined;
}
