import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { killServerNow, signalProcessGroup } from '../process/process-group.js';
import { findServerProcesses, readEnvironmentVariable, SERVER_MARKER_VARIABLE, signalProcess } from '../process/process-tree.js';

/**
 * A holder's servers must not outlive it, even when it is SIGKILLed (SPEC §12) and has no chance to
 * end them. A server that exits when its stdin closes does so by itself; for the others, the holder
 * starts this small watcher in its own process session and tells it each server's pid and marker
 * over a pipe. When the pipe closes — the holder exited, however — the watcher ends those servers
 * (their process group, and descendants found by marker) and exits.
 */
export interface Reaper {
  watch(pid: number, marker: string): void;
  /** The holder ended this server itself. */
  forget(pid: number): void;
  close(): void;
}

const REAPER_GRACE_MS = 500;

export function startReaper(holderScript: string): Reaper {
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, [holderScript, '--reap'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {});
    child.stdin!.on('error', () => {});
    child.unref();
  } catch {
    child = undefined;
  }
  return {
    watch: (pid, marker) => child?.stdin?.write(`${JSON.stringify({ pid, marker })}\n`),
    forget: (pid) => child?.stdin?.write(`${JSON.stringify({ forget: pid })}\n`),
    close: () => child?.stdin?.end(),
  };
}

/** The watcher itself (`session-holder.js --reap`): reads servers until stdin closes, then ends them. */
export async function runReaper(): Promise<void> {
  const servers = new Map<number, string>();
  for await (const line of createInterface({ input: process.stdin })) {
    try {
      const message = JSON.parse(line) as { pid?: number; marker?: string; forget?: number };
      if (Number.isInteger(message.pid) && typeof message.marker === 'string') servers.set(message.pid!, message.marker);
      else if (Number.isInteger(message.forget)) servers.delete(message.forget!);
    } catch {
      // not a server line
    }
  }
  // The holder is gone. A pid is signalled only while it still carries its server's marker (a pid
  // the system reused for another program is left alone); descendants are found by marker.
  const owned = () => [...servers].filter(([pid, marker]) => readEnvironmentVariable(pid, SERVER_MARKER_VARIABLE) === marker);
  const alive = owned();
  if (alive.length > 0) {
    for (const [pid] of alive) signalProcessGroup(pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, REAPER_GRACE_MS));
  }
  const survivors = new Set(owned().map(([pid]) => pid));
  for (const [pid, marker] of servers) {
    if (survivors.has(pid)) killServerNow({ pid, marker });
    // The leader is gone: only processes that carry the marker are the server's (the pid may be reused).
    else for (const other of findServerProcesses(pid, marker)) if (readEnvironmentVariable(other.pid, SERVER_MARKER_VARIABLE) === marker) signalProcess(other.pid, 'SIGKILL');
  }
}
