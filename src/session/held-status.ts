import { describeCrash, type CrashRecords } from './crashed-servers.js';
import { liveConnection, type HolderState } from './holder-ops.js';
import type { HeldServerStatus } from './holder-protocol.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/** One held server as `session list` shows it: connected (tools, calls), crashed (and whether its next use restarts it), or failed. */
export function heldServerStatus(state: HolderState, crashes: CrashRecords, name: string): HeldServerStatus {
  const entry = state.registry.servers.get(name);
  const restarts = crashes.restarts(name) || undefined;
  const live = liveConnection(state, name);
  if (live) return { name, status: 'connected', tools: live.tools.length, calls: state.calls.get(name) ?? 0, pid: live.stdio?.pid, protocol: live.protocolVersion, restarts };
  if (entry?.status === 'connected') {
    const crash = describeCrash(entry.connection);
    const restartsOnUse = crashes.wouldRestart(name, crash);
    return {
      name,
      status: 'crashed',
      reason: restartsOnUse ? crash.reason : `${crash.reason} (again, after a restart for the same cause: not restarted; ${toolrunCommand('session', 'start', name)} starts it afresh)`,
      restartsOnUse,
      restarts,
    };
  }
  const crash = crashes.lastCrash(name);
  const failed = entry?.status === 'failed' ? entry.failure.reason : 'not connected';
  return { name, status: 'failed', reason: crash ? `crashed (${crash.reason}), and the restart failed: ${failed}` : failed, restarts };
}
