import { isProcessGroupAlive, signalProcessGroup } from './process-group.js';
import { existsSync } from 'node:fs';
import { findServerProcesses, isProcessAlive, readCpuUse, signalProcess, type ProcessInfo, type ServerRoot } from './process-tree.js';
import type { ExitInfo } from './exit-info.js';

/** The waiting parts of a server's shutdown ladder (server-process.ts decides the order). */

/** How long a server's own processes get to exit by themselves after it did. */
const SETTLE_MS = 300;

/**
 * The processes of a server still alive once it exited: given a moment to follow it, then recorded
 * and ended (SIGTERM, then SIGKILL after the grace period). Returns what had to be ended.
 */
export async function endLeftovers(root: ServerRoot & { marker: string }, family: ProcessInfo[], grace: number): Promise<ProcessInfo[]> {
  const { pid } = root;
  const known = new Map(family.map((member) => [member.pid, member]));
  for (const member of findServerProcesses(pid, root.marker, root.startTicks)) known.set(member.pid, member);
  let left = [...known.values()].filter((member) => isProcessAlive(member.pid));
  const settleUntil = Date.now() + Math.min(grace, SETTLE_MS);
  while (left.length > 0 && Date.now() < settleUntil) {
    await sleep(25);
    left = left.filter((member) => isProcessAlive(member.pid));
  }
  if (left.length === 0) return [];
  if (isProcessGroupAlive(pid)) signalProcessGroup(pid, 'SIGTERM');
  for (const member of left) signalProcess(member.pid, 'SIGTERM');
  const killAt = Date.now() + grace;
  let stubborn = left;
  while (stubborn.length > 0 && Date.now() < killAt) {
    await sleep(25);
    stubborn = stubborn.filter((member) => isProcessAlive(member.pid));
  }
  if (isProcessGroupAlive(pid)) signalProcessGroup(pid, 'SIGKILL');
  for (const member of stubborn) signalProcess(member.pid, 'SIGKILL');
  return left;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * After its stdin closed, a server either exits by itself or never does. Measured on this project's
 * 2-core CI machine under load (issue #19 item 10, 3 runs each, stdin closed after initialize,
 * tools/list and one call):
 *
 *   server                                   exit after stdin close      exit after SIGTERM
 *   fixtures (v1 SDK, v2 SDK, hand-rolled)   0–45 ms                     –
 *   server-everything                        330–350 ms (a 350 ms timer)  –
 *   server-postgres, before any query        10–20 ms                    –
 *   server-postgres after a query            never (its pg pool holds    10–45 ms
 *                                            a connection open)
 *   server-redis                             never (its client stays)    15–50 ms
 *   Python mcp 2.3 MCPServer                 200–940 ms (anyio teardown) –
 *
 * So a fixed wait is either too short for the slow exits (a Python server killed mid-teardown) or,
 * at 1 s, a whole second added to every exec of a server that ignores stdin EOF. The wait follows
 * the server instead: as long as it uses CPU (or waits for one) it is exiting and gets the whole
 * grace; once it has been idle for IDLE_AFTER_MS it is not going to exit, and SIGTERM comes then
 * (server-postgres and server-redis: ~250 ms instead of 1 s). Without /proc: the whole grace.
 */
export const IDLE_AFTER_MS = 200;
const IDLE_POLL_MS = 25;
const CAN_READ_PROCESSES = existsSync('/proc/self/stat');

/** Resolves true if the process exits within `ms`, false at `ms` or as soon as it and `family` have been idle for IDLE_AFTER_MS. */
export async function exitsUnlessIdle(exited: Promise<ExitInfo>, pid: number, family: number[], ms: number): Promise<boolean> {
  if (!CAN_READ_PROCESSES) return exitsWithin(exited, ms);
  const pids = [pid, ...family];
  const deadline = Date.now() + ms;
  let ticks = -1;
  let idleSince = Date.now();
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    if (await exitsWithin(exited, Math.min(IDLE_POLL_MS, left))) return true;
    const uses = pids.map(readCpuUse);
    const used = uses.reduce((sum, use) => sum + (use?.ticks ?? 0), 0);
    // Running or queued for a CPU ('R', 'D' in I/O), or already a zombie: it is busy exiting.
    const busy = used !== ticks || uses.some((use) => use && use.state !== 'S' && use.state !== 'I');
    ticks = used;
    if (busy) idleSince = Date.now();
    else if (Date.now() - idleSince >= IDLE_AFTER_MS) return false;
  }
}

export function exitsWithin(exited: Promise<ExitInfo>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void exited.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
