import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isSecretName, maskNamedValue, maskSecrets } from '../secrets/mask-secrets.js';

/** Lines kept in the history file (the oldest go first). */
export const HISTORY_LINES = 1000;

/** `$XDG_STATE_HOME/toolrun/history`, else `~/.local/state/toolrun/history` (XDG base directories). */
export function historyPath(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'toolrun', 'history');
}

/**
 * A line as it may be written down: `token=…` style arguments (a name that says secret) and
 * anything that looks like a secret (sk-…, Bearer …, --password x) masked, by src/secrets.
 */
export function maskHistoryLine(line: string): string {
  const named = line.replace(/(^|\s)([\w.-]+)(:?=)('[^']*'|"(?:[^"\\]|\\.)*"|\S+)/g, (whole, space: string, key: string, equals: string, value: string) =>
    isSecretName(key) ? `${space}${key}${equals}${maskNamedValue(key, value)}` : whole,
  );
  return maskSecrets(named);
}

/**
 * The shell's history file: read at start (newest first, as readline wants it), appended to as lines
 * are run (masked), trimmed to HISTORY_LINES when the shell ends. Private: 0600 in a 0700 folder,
 * since what people type into a tool is often not for others. A history that cannot be read or
 * written is not the shell's failure: it runs without one, saying so once.
 */
export class ShellHistory {
  readonly path: string;
  #broken: string | undefined;
  #appended = 0;

  constructor(path: string) {
    this.path = path;
  }

  /** Newest first; [] when there is none or it cannot be read. */
  load(): string[] {
    try {
      if (!existsSync(this.path)) return [];
      return readFileSync(this.path, 'utf8').split('\n').filter(Boolean).slice(-HISTORY_LINES).reverse();
    } catch (error) {
      this.#broken = (error as Error).message;
      return [];
    }
  }

  /** Appends a line (masked); a problem is returned once, for the shell to say. */
  add(line: string): string | undefined {
    if (this.#broken !== undefined || !line.trim()) return undefined;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      chmodSync(dirname(this.path), 0o700);
      appendFileSync(this.path, `${maskHistoryLine(line).replace(/[\r\n]/g, ' ')}\n`, { mode: 0o600 });
      chmodSync(this.path, 0o600);
      this.#appended++;
      return undefined;
    } catch (error) {
      this.#broken = (error as Error).message;
      return `history not saved (${this.#broken}); set XDG_STATE_HOME to a folder of your own`;
    }
  }

  /** Keeps the newest HISTORY_LINES lines. */
  trim(): void {
    if (this.#appended === 0 || this.#broken !== undefined) return;
    try {
      const lines = readFileSync(this.path, 'utf8').split('\n').filter(Boolean);
      if (lines.length > HISTORY_LINES) writeFileSync(this.path, `${lines.slice(-HISTORY_LINES).join('\n')}\n`, { mode: 0o600 });
    } catch {
      // trimming is housekeeping: the next shell tries again
    }
  }
}
