/** How a server process ended: its exit code, or the signal that ended it. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How the server went away when toolrun closed it (SPEC §5 step 8). */
export type ShutdownOutcome = 'already-exited' | 'stdin-closed' | 'SIGTERM' | 'SIGKILL';

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };

/** The shell's way of saying it as one number: the code, or 128 + the signal's number. */
export function exitCodeOf(info: ExitInfo): number {
  if (info.code !== null) return info.code;
  return 128 + ((info.signal && SIGNAL_NUMBERS[info.signal]) ?? 1);
}
