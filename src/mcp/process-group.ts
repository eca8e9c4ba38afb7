/**
 * Servers are spawned as leaders of their own process group (detached), so that ending one ends
 * what it started too: `npx some-server` is npm, a shell and node; SIGTERM to npm alone orphans node.
 * And Ctrl-C in the terminal reaches toolrun only, which then shuts servers down in order.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Remembers a group so that, whatever happens, it is killed when toolrun's process exits. */
export function trackProcessGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort, synchronous: the orderly shutdown (stdin, SIGTERM, SIGKILL) has normally run already.
    process.on('exit', () => {
      for (const group of liveGroups) signalProcessGroup(group, 'SIGKILL');
    });
  }
}

export function untrackProcessGroup(pid: number): void {
  liveGroups.delete(pid);
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
