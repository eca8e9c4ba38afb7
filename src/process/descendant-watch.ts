import { findDescendantsOfEach, readCommandLine, startTicksOf, type ProcessInfo } from './process-tree.js';

/**
 * How often the descendants of a watched process are looked for: a helper a `--sampling-command`
 * starts and leaves behind lives at least this long before its parent's exit orphans it, in practice
 * (a model CLI runs for seconds). One pass serves every watched process (well under a ms: only their families are read).
 */
export const WATCH_INTERVAL_MS = 50;

type Seen = ProcessInfo & { startTicks: number };

const watched = new Map<number, Map<number, Seen>>();
let timer: NodeJS.Timeout | undefined;

/**
 * A process that ends by itself (a `--sampling-command`, unlike a server, which toolrun ends while it
 * runs) leaves its helpers orphaned when it exits: a `setsid()` helper with a bare environment then
 * has neither its parent pid nor toolrun's marker (process-tree.ts), and nothing links it to the
 * command. So its descendants are noted by parent pid while it runs, and `seen()` gives those still
 * running, checked by start time (a pid seen earlier may name another process by now), for its
 * shutdown to end with the rest of its family (server-process.ts).
 */
export function watchDescendants(pid: number): { seen(): ProcessInfo[]; stop(): void } {
  const members = new Map<number, Seen>();
  watched.set(pid, members);
  scan();
  timer ??= setInterval(scan, WATCH_INTERVAL_MS);
  // Watching never keeps toolrun alive.
  timer.unref();
  return {
    seen: () => [...members.values()].filter((member) => startTicksOf(member.pid) === member.startTicks),
    stop: () => {
      watched.delete(pid);
      if (watched.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
  };
}

function scan(): void {
  if (watched.size === 0) return;
  for (const [root, found] of findDescendantsOfEach([...watched.keys()])) {
    const members = watched.get(root);
    for (const member of found) {
      const known = members?.get(member.pid);
      // Its command line is read once, when it is first seen (a pid seen again with another start is another process).
      if (known?.startTicks !== member.startTicks) members?.set(member.pid, { ...member, command: readCommandLine(member.pid) });
    }
  }
}
