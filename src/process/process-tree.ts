import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * What toolrun can learn about a server's processes from /proc (Linux). A server's descendants are
 * found two ways: by parent pid (whatever their process group or session: a `setsid()` helper still
 * has its parent), and by an environment marker toolrun gives the server, which every descendant
 * inherits, so a helper whose parent already exited (reparented to init) is found too.
 * Where /proc does not exist, every function answers "nothing found".
 */

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** argv joined with spaces, for messages. */
  command: string;
}

/** Name of the variable that marks every process of one server (its value is unique per spawn). */
export const SERVER_MARKER_VARIABLE = 'TOOLRUN_SERVER_ID';

function readStat(pid: number): { ppid: number; pgid: number; state: string; startTicks: number } | undefined {
  try {
    // The command name in parentheses may contain spaces or ')': the fields start after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is proc(5)'s field 3 (state); field 22 is the start time, in clock ticks since boot.
    return { state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]), startTicks: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/**
 * When a live process started (clock ticks since boot), or undefined once it is gone: with its pid,
 * it names one process, where a pid alone may name a later one that got the number again.
 */
export function startTicksOf(pid: number): number | undefined {
  const stat = readStat(pid);
  return stat && stat.state !== 'Z' ? stat.startTicks : undefined;
}

function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

export function readCommandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** One variable of a process's environment at its start, or undefined (gone, or not ours to read). */
export function readEnvironmentVariable(pid: number, name: string): string | undefined {
  try {
    const prefix = `${name}=`;
    const entry = readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .find((item) => item.startsWith(prefix));
    return entry?.slice(prefix.length);
  } catch {
    return undefined;
  }
}

/** A server's root process, as the scans below take it: `startTicks` is its start time, read when it was spawned. */
export interface ServerRoot {
  pid: number;
  marker?: string;
  startTicks?: number;
}

/**
 * Every live (non-zombie) descendant of `rootPid`, and every process carrying `marker` in its
 * environment, except the root itself.
 */
export function findServerProcesses(rootPid: number, marker?: string, startTicks?: number): ProcessInfo[] {
  return findServerFamilies([{ pid: rootPid, marker, startTicks }]);
}

/**
 * findServerProcesses for many servers in one pass over /proc: at exit with hundreds of servers,
 * one scan per server would cost seconds.
 */
export function findServerFamilies(servers: readonly ServerRoot[]): ProcessInfo[] {
  if (servers.length === 0) return [];
  const { table, children } = readProcessTable();
  const roots = new Set(servers.map((server) => server.pid));
  const found = descendantsIn(
    children,
    servers.map((server) => server.pid),
    roots,
  );
  const marked = servers.filter((server) => server.marker);
  const markers = new Set(marked.map((server) => server.marker!));
  // A process carrying a marker was started by its server or a descendant, so not before the server:
  // older processes are passed over unread (an environment is a few KB; a busy machine has hundreds of
  // processes, and reading them all cost ~40 ms per shutdown). Unknown when a root's start is unknown.
  const earliest = marked.every((server) => server.startTicks !== undefined) ? Math.min(...marked.map((server) => server.startTicks!)) : 0;
  if (markers.size > 0) {
    for (const [pid, { startTicks }] of table) {
      if (roots.has(pid) || pid === process.pid || found.has(pid) || startTicks < earliest) continue;
      const marker = readEnvironmentVariable(pid, SERVER_MARKER_VARIABLE);
      if (marker !== undefined && markers.has(marker)) found.add(pid);
    }
  }
  return [...found].map((pid) => ({ pid, ppid: table.get(pid)!.ppid, pgid: table.get(pid)!.pgid, command: readCommandLine(pid) }));
}

/**
 * The live descendants of `rootPid` by parent pid, with their command lines: a server's family while
 * it runs. Unlike findServerProcesses it reads no other process (where the kernel lists children):
 * ~0.1 ms, where a pass over /proc reads a stat line of every process of the machine (0.02-0.27 ms
 * each on a 2-core VM, quiet to loaded).
 */
export function findServerTree(rootPid: number): ProcessInfo[] {
  return (findDescendantsOfEach([rootPid]).get(rootPid) ?? []).map(({ pid, ppid, pgid }) => ({ pid, ppid, pgid, command: readCommandLine(pid) }));
}

/**
 * The live descendants of each of `rootPids`, by parent pid, with their start times (descendant-watch.ts
 * asks this every 50 ms for every process it watches at once). Where the kernel lists each thread's
 * children (/proc/PID/task/TID/children, Linux 3.5+ with CONFIG_PROC_CHILDREN) only the families are
 * read, not every process of the machine. `command` is left empty: the watcher reads it once per process.
 */
export function findDescendantsOfEach(rootPids: readonly number[]): Map<number, Array<ProcessInfo & { startTicks: number }>> {
  if (!childrenFilesExist()) {
    const { table, children } = readProcessTable();
    const roots = new Set(rootPids);
    return new Map(rootPids.map((root) => [root, [...descendantsIn(children, [root], roots)].map((pid) => ({ pid, ...table.get(pid)!, command: '' }))]));
  }
  const roots = new Set(rootPids);
  return new Map(
    rootPids.map((root) => {
      const found: Array<ProcessInfo & { startTicks: number }> = [];
      const seen = new Set<number>();
      const queue = childrenFromFiles(root);
      while (queue.length > 0) {
        const pid = queue.pop()!;
        if (seen.has(pid) || roots.has(pid)) continue;
        seen.add(pid);
        const stat = readStat(pid);
        if (!stat || stat.state === 'Z') continue;
        found.push({ pid, ppid: stat.ppid, pgid: stat.pgid, startTicks: stat.startTicks, command: '' });
        queue.push(...childrenFromFiles(pid));
      }
      return [root, found];
    }),
  );
}

let childrenFiles: boolean | undefined;
function childrenFilesExist(): boolean {
  childrenFiles ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childrenFiles;
}

/** The children of every thread of `pid`, from the kernel's lists (empty once it is gone). */
function childrenFromFiles(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** Every live (non-zombie) process, and the children of each parent pid. */
function readProcessTable(): { table: Map<number, { ppid: number; pgid: number; startTicks: number }>; children: Map<number, number[]> } {
  const table = new Map<number, { ppid: number; pgid: number; startTicks: number }>();
  const children = new Map<number, number[]>();
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (!stat || stat.state === 'Z') continue;
    table.set(pid, { ppid: stat.ppid, pgid: stat.pgid, startTicks: stat.startTicks });
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(pid);
    else children.set(stat.ppid, [pid]);
  }
  return { table, children };
}

/** The descendants of `from` in the children map (never one of `roots` itself). */
function descendantsIn(children: Map<number, number[]>, from: readonly number[], roots: ReadonlySet<number>): Set<number> {
  const found = new Set<number>();
  const queue = from.flatMap((pid) => children.get(pid) ?? []);
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (found.has(pid) || roots.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * The CPU time a process has used (user + system, in clock ticks) and its state ('R' running or
 * waiting for a CPU, 'S' asleep, 'Z' exited…), or undefined once it is gone or where /proc is absent.
 */
export function readCpuUse(pid: number): { ticks: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5) (utime, stime); fields[0] is field 3 (state).
    return { ticks: Number(fields[11]) + Number(fields[12]), state: fields[0]! };
  } catch {
    return undefined;
  }
}

/** True while the process exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  const stat = readStat(pid);
  if (stat) return stat.state !== 'Z';
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}
