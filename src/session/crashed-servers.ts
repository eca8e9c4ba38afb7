import { describeExit } from '../mcp/connect/classify-attempt.js';
import { mainCause } from '../mcp/causes/failure-causes.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { ERROR_LIKE_LINE } from '../mcp/causes/stderr-log.js';

/** How a held server went down: the reason shown (`session list`, --verbose), and the cause it is compared by. */
export interface Crash {
  reason: string;
  /** Two crashes with the same key are the same cause: the second is not restarted (no restart loop). */
  key: string;
}

/** Lines of the dead server's stderr searched for the line that says why. */
const STDERR_LINES_SEARCHED = 30;

/** How the server behind a lost connection went down (its exit or its closed stdout, and its stderr's last error line). */
export function describeCrash(connection: ServerConnection): Crash {
  const stdio = connection.stdio;
  const how = stdio?.exitInfo ? describeExit(stdio.exitInfo) : (stdio?.fault ?? 'the connection was lost');
  const lines = stdio?.stderr.lastLines(STDERR_LINES_SEARCHED) ?? [];
  // The error line, not the stack frame after it ("at Parser.parse…") or Node's "Node.js v20.x" footer.
  const said = lines.findLast((line) => ERROR_LIKE_LINE.test(line) && !/^\s*at /.test(line)) ?? lines.findLast((line) => line.trim() && !/^\s*at /.test(line));
  const named = mainCause([...(stdio?.stderr.causes.values() ?? [])]);
  return {
    reason: `${how}${said ? `; its stderr: ${said.trim()}` : ''}`,
    // Digits left out: a pid, port or time in the line does not make a crash a new cause.
    key: `${how}\0${named?.id ?? (said ?? '').replace(/\d+/g, '#')}`,
  };
}

/**
 * The holder's restart policy (SPEC §12): a held server that crashed is restarted on its next use,
 * once per cause — if the restarted server goes down the same way before it served a call, it is
 * left down (the next calls run cold, saying why) instead of being restarted on every call.
 */
export class CrashRecords {
  readonly #restartedFor = new Map<string, string>();
  readonly #restarts = new Map<string, number>();
  /** The crash a server was last restarted after, or that kept it down, for `session list`. */
  readonly #last = new Map<string, Crash>();

  /** May this crash be answered with a restart? Records it when so. */
  claimRestart(server: string, crash: Crash): boolean {
    this.#last.set(server, crash);
    if (this.#restartedFor.get(server) === crash.key) return false;
    this.#restartedFor.set(server, crash.key);
    this.#restarts.set(server, (this.#restarts.get(server) ?? 0) + 1);
    return true;
  }

  /** Would a restart be allowed (without claiming it)? */
  wouldRestart(server: string, crash: Crash): boolean {
    return this.#restartedFor.get(server) !== crash.key;
  }

  /** The restarted server served a call: a later crash of the same cause is worth a restart again. */
  noteServed(server: string): void {
    this.#restartedFor.delete(server);
  }

  restarts(server: string): number {
    return this.#restarts.get(server) ?? 0;
  }

  lastCrash(server: string): Crash | undefined {
    return this.#last.get(server);
  }

  /** Started afresh by `session start` (or stopped): its history no longer applies. */
  forget(server: string): void {
    this.#restartedFor.delete(server);
    this.#restarts.delete(server);
    this.#last.delete(server);
  }
}
