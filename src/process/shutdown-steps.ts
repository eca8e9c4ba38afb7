import { isProcessGroupAlive, signalProcessGroup } from './process-group.js';
import { findServerProcesses, isProcessAlive, signalProcess, type ProcessInfo } from './process-tree.js';
import type { ExitInfo } from './exit-info.js';

/** The waiting parts of a server's shutdown ladder (server-process.ts decides the order). */

/** How long a server's own processes get to exit by themselves after it did. */
const SETTLE_MS = 300;

/**
 * The processes of a server still alive once it exited: given a moment to follow it, then recorded
 * and ended (SIGTERM, then SIGKILL after the grace period). Returns what had to be ended.
 */
export async function endLeftovers(pid: number, marker: string, family: ProcessInfo[], grace: number): Promise<ProcessInfo[]> {
  const known = new Map(family.map((member) => [member.pid, member]));
  for (const member of findServerProcesses(pid, marker)) known.set(member.pid, member);
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

export function exitsWithin(exited: Promise<ExitInfo>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void exited.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
