import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { findHolder } from './find-holder.js';
import { startHolderFor } from './session-commands.js';
import { sessionKey } from './session-key.js';
import { sessionDirectory } from './session-paths.js';

/** A holder started for a task exits after this long without a request (as `session start`'s default). */
const TASK_HOLDER_IDLE_MS = 10 * 60_000;

/**
 * `exec --no-wait` on a Streamable HTTP server (issue #32): a server such as server-everything
 * keeps its tasks in the MCP session, which ends with the connection that made it. The call is
 * made on a session holder instead (this config's running one, asked to add the server, or one
 * started now and left running), so `toolrun tasks get ID` — which asks the holder — finds the
 * task in the same session. Undefined when no holder can hold it (the caller says so in one line).
 */
export async function holdServerForTask(cli: CliContext, config: ToolrunConfig, server: string): Promise<{ pid: number; idleMs: number; startedHere: boolean } | undefined> {
  if (!cli.globals.session || !config.path) return undefined;
  const found = await findHolder(cli, config, { quiet: true });
  if (found) {
    try {
      const held = found.status.servers.find((item) => item.name === server);
      const status = held?.status === 'connected' ? found.status : ((await found.client.request('add', { servers: [server] }, { signal: cli.signal })).status as typeof found.status);
      const connected = status.servers.find((item) => item.name === server)?.status === 'connected';
      return connected ? { pid: status.pid, idleMs: status.idleMs, startedHere: false } : undefined;
    } finally {
      found.client.close();
    }
  }
  const ready = await startHolderFor(cli, config, { servers: [server], idleMs: TASK_HOLDER_IDLE_MS, dir: sessionDirectory(cli.env), key: sessionKey(config, cli.env) });
  const connected = ready.status.servers.find((item) => item.name === server)?.status === 'connected';
  return connected ? { pid: ready.status.pid, idleMs: ready.status.idleMs, startedHere: ready.joined !== true } : undefined;
}
