import { findServerFamilies, findServerProcesses, signalProcess } from './process-tree.js';

/**
 * Servers are spawned as leaders of their own process group (detached), so that ending one ends
 * what it started too: `npx some-server` is npm, a shell and node; SIGTERM to npm alone orphans node.
 * And Ctrl-C in the terminal reaches toolrun only, which then shuts servers down in order.
 * Processes that left the group (`setsid()` helpers) are found by parent pid and by the server's
 * environment marker (process-tree.ts).
 */

/** A spawned server as this module knows it: enough to end it politely, or to kill it at exit. */
export interface LiveServer {
  pid: number;
  marker: string;
  /** When it started (clock ticks since boot, process-tree.ts), where /proc tells. */
  startTicks?: number;
  /** The polite ladder: stdin closed, SIGTERM, SIGKILL, descendants included. */
  shutdown(): Promise<unknown>;
}

const liveServers = new Set<LiveServer>();
let exitHookInstalled = false;

/** Remembers a server so that, whatever happens, it is killed when toolrun's process exits. */
export function trackServer(server: LiveServer): void {
  liveServers.add(server);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort, synchronous: the orderly shutdown (stdin, SIGTERM, SIGKILL) has normally run already.
    process.on('exit', killAllServersNow);
    // An uncaught exception ends the process without 'exit': the monitor runs first, whatever follows.
    process.on('uncaughtExceptionMonitor', killAllServersNow);
  }
}

export function untrackServer(server: LiveServer): void {
  liveServers.delete(server);
}

/** Ends every server still running, politely and in parallel (Ctrl-C, SIGTERM, SIGHUP). */
export async function shutdownAllServers(): Promise<void> {
  await Promise.allSettled([...liveServers].map((server) => server.shutdown()));
}

/** SIGKILL to every server still tracked, its group and its descendants: one /proc scan for all. */
export function killAllServersNow(): void {
  const servers = [...liveServers];
  if (servers.length === 0) return;
  const others = findServerFamilies(servers);
  for (const server of servers) signalProcessGroup(server.pid, 'SIGKILL');
  for (const other of others) signalProcess(other.pid, 'SIGKILL');
}

/** SIGKILL to the server's group and to every process of it outside the group. */
export function killServerNow(server: Pick<LiveServer, 'pid' | 'marker' | 'startTicks'>): void {
  const others = findServerProcesses(server.pid, server.marker, server.startTicks);
  signalProcessGroup(server.pid, 'SIGKILL');
  for (const other of others) signalProcess(other.pid, 'SIGKILL');
}

/** Sends a signal to the whole group; falls back to the process alone where groups do not exist. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/** True while any process of the group is alive. */
export function isProcessGroupAlive(pid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}
