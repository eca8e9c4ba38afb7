import type { ServerConnection } from './server-connection.js';

// Its own file: `toolrun time` and the session holder ask it at startup, without loading the tool runner.
/** True once the server behind this connection is gone: no later call can succeed. */
export function isConnectionLost(connection: ServerConnection): boolean {
  return connection.stdio?.exitInfo !== undefined || connection.stdio?.fault !== undefined;
}
