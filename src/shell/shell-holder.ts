import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { ToolrunError } from '../errors.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { findHolder } from '../session/find-holder.js';
import { HolderClient } from '../session/holder-client.js';
import type { HolderStatus } from '../session/holder-protocol.js';
import { sessionKey } from '../session/session-key.js';
import { sessionDirectory, sessionFiles } from '../session/session-paths.js';
import { startHolderFor, stopHolderAt } from '../session/session-commands.js';

/** A holder started for a shell still exits on its own after this long idle if the shell dies without ending it. */
const SHELL_HOLDER_IDLE_MS = 10 * 60_000;
/** The shell asks the holder this often, so a person thinking for a while does not lose it to the idle timeout. */
const KEEP_ALIVE_MS = 60_000;

/** The holder a shell runs on (SPEC §12, §17), and what the shell must undo when it ends. */
export interface ShellHolder {
  client: HolderClient;
  status: HolderStatus;
  /** The shell started it: it ends it (and its servers) when the shell ends. */
  startedHere: boolean;
  /** Servers the shell asked an already running holder to add: stopped again when it ends. */
  added: string[];
  /** Servers that could not be connected. */
  failures: ConnectFailure[];
}

/**
 * The holder of this config with these servers (all configured ones when none are named): the
 * running one (asked to add what it lacks), else one started now. Throws `unreachable` when none of
 * the servers connects (the holder, if started here, is stopped again).
 */
export async function holdServersForShell(cli: CliContext, config: ToolrunConfig, servers: string[]): Promise<ShellHolder> {
  const wanted = servers.length > 0 ? servers : Object.keys(config.servers);
  const dir = sessionDirectory(cli.env);
  const key = sessionKey(config, cli.env);
  const files = sessionFiles(dir, key);
  // --no-session does not apply: the shell is a session.
  const found = await findHolder({ ...cli, globals: { ...cli.globals, session: true } }, config, { quiet: true });
  let held: ShellHolder;
  if (found) {
    const lacking = wanted.filter((name) => found.status.servers.find((server) => server.name === name)?.status !== 'connected');
    let failures: ConnectFailure[] = [];
    let status = found.status;
    if (lacking.length > 0) {
      const reply = await found.client.request('add', { servers: lacking }, { signal: cli.signal });
      failures = reply.failures as ConnectFailure[];
      status = reply.status as HolderStatus;
    }
    held = { client: found.client, status, startedHere: false, added: lacking, failures };
  } else {
    const ready = await startHolderFor(cli, config, { servers: wanted, idleMs: SHELL_HOLDER_IDLE_MS, dir, key });
    const client = await HolderClient.connect(files.socket, 5000);
    // Another shell or `session start` won the race: the holder and its servers are theirs
    // (ready.joined), and this shell ends neither.
    held = { client, status: ready.status, startedHere: ready.joined !== true, added: [], failures: ready.failures };
  }
  const connected = held.status.servers.filter((server) => wanted.includes(server.name) && server.status === 'connected');
  if (connected.length === 0) {
    await releaseShellHolder(held);
    const why = held.failures.map((failure) => `${failure.server}: ${failure.reason}`).join('; ');
    throw new ToolrunError('unreachable', `no MCP server of the shell could be connected${why ? ` (${why})` : ''}; check them with: toolrun mcp doctor SERVER`);
  }
  const keepAlive = setInterval(() => held.client.send('status').reply.catch(() => {}), KEEP_ALIVE_MS);
  keepAlive.unref();
  return held;
}

/** Ends what the shell started: the holder it started (waiting until it and its servers are gone), or the servers it added. */
export async function releaseShellHolder(held: ShellHolder): Promise<void> {
  try {
    if (held.startedHere) {
      held.client.close();
      await stopHolderAt(held.status.socket, held.status.pid, []);
    } else if (held.added.length > 0) {
      await held.client.request('stop', { servers: held.added });
      held.client.close();
    } else held.client.close();
  } catch {
    // The holder is gone already (stopped from elsewhere, or crashed): nothing left to end.
  }
}
