import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { ExecutorLogger } from '../executor/tool-executor.js';
import { maskKnownSecrets, maskSecrets, maskSecretsDeep } from '../secrets/mask-secrets.js';
import { shouldAnimate, shouldUseColor } from './color.js';
import { defuseCiCommands, defuseCiCommandsInJson } from './defuse-ci-commands.js';
import { BIDI_CONTROLS } from '../text/control-characters.js';
import { escapeControls, escapeOneLine } from './escape-controls.js';
import { createStyle, type Style } from './style.js';

const JSON_UNESCAPED_CONTROLS = new RegExp(`[\\x7f-\\x9f${BIDI_CONTROLS}]`, 'g');

export interface TerminalOptions {
  json: boolean;
  verbose: boolean;
  quiet: boolean;
  noColorFlag: boolean;
  env: NodeJS.ProcessEnv;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * The only module that writes to stdout and stderr. stdout carries results and nothing else;
 * logs, warnings, progress and server stderr go to stderr (SPEC §2), so `toolrun ... | jq` works.
 * Everything toolrun writes passes through here, so this is where secrets are masked and a server's
 * control characters are made harmless (SPEC §8), for every command at once.
 */
export class Terminal implements ExecutorLogger {
  readonly json: boolean;
  readonly verboseEnabled: boolean;
  readonly quiet: boolean;
  /** Styles for stdout (never with --json) and for stderr. */
  readonly outStyle: Style;
  readonly errStyle: Style;
  readonly animate: boolean;
  readonly #options: TerminalOptions;

  readonly #stdoutIsTTY: boolean;

  private constructor(options: TerminalOptions, outStyle: Style, errStyle: Style, stdoutIsTTY: boolean, stderrIsTTY: boolean) {
    this.#options = options;
    this.#stdoutIsTTY = stdoutIsTTY;
    this.json = options.json;
    this.verboseEnabled = options.verbose;
    this.quiet = options.quiet;
    this.outStyle = outStyle;
    this.errStyle = errStyle;
    this.animate = shouldAnimate({ json: options.json, isTTY: stderrIsTTY, env: options.env, quiet: options.quiet });
  }

  static async create(options: TerminalOptions): Promise<Terminal> {
    // isatty on the descriptors, not process.stdout/stderr.isTTY: touching process.stderr builds a
    // stream (and for a pipe, loads net: ~2 ms of a run that may never write to it).
    const outIsTTY = options.stdout ? Boolean(options.stdout.isTTY) : isatty(1);
    const errIsTTY = options.stderr ? Boolean(options.stderr.isTTY) : isatty(2);
    const colorFor = (isTTY: boolean) => shouldUseColor({ noColorFlag: options.noColorFlag, json: options.json, isTTY, env: options.env });
    const [outStyle, errStyle] = await Promise.all([createStyle(colorFor(outIsTTY)), createStyle(colorFor(errIsTTY))]);
    return new Terminal(options, outStyle, errStyle, outIsTTY, errIsTTY);
  }

  get stdout(): NodeJS.WriteStream {
    return this.#options.stdout ?? process.stdout;
  }

  get stderr(): NodeJS.WriteStream {
    return this.#options.stderr ?? process.stderr;
  }

  /**
   * Writes a result to stdout; resolves once it is flushed, so piped output is never cut off.
   * `verbatim`: a tool's own result, which is the user's data, not toolrun's words: not masked.
   * `json`: the text is JSON (--raw), where a CI command can be defused without changing its value.
   */
  result(text: string, options: { verbatim?: boolean; json?: boolean } = {}): Promise<void> {
    if (options.verbatim) {
      // A tool's result redirected to a file keeps its bytes; on a terminal, its escapes are shown, not run.
      const shown = this.#stdoutIsTTY ? escapeControls(text) : text;
      // In a CI log (not a file), a result line that is a workflow command would run (defuse-ci-commands.ts).
      return this.#writeStdout(options.json ? defuseCiCommandsInJson(shown) : this.#stdoutIsCiLog() ? defuseCiCommands(shown) : shown);
    }
    return this.#writeStdout(defuseCiCommands(escapeControls(maskSecrets(text), this.outStyle.enabled)));
  }

  /** GitHub Actions reads stdout as its log unless it was redirected to a file. */
  #stdoutIsCiLog(): boolean {
    if (this.#options.env.GITHUB_ACTIONS !== 'true') return false;
    if (this.#options.stdout) return true;
    try {
      return !fstatSync(1).isFile();
    } catch {
      return true;
    }
  }

  /** True once a result was written: an interrupted command that wrote none still owes --json its document. */
  wroteResult = false;

  #writeStdout(text: string): Promise<void> {
    this.wroteResult = true;
    const data = text.endsWith('\n') ? text : `${text}\n`;
    const stdout = this.stdout;
    if (!this.#watchingStdout) {
      this.#watchingStdout = true;
      // `toolrun list | head -1`: the reader leaving is not toolrun's failure; stop writing quietly.
      stdout.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
        this.#stdoutClosed = true;
      });
    }
    if (this.#stdoutClosed) return Promise.resolve();
    return new Promise((resolve) => {
      stdout.write(data, () => resolve());
    });
  }

  #watchingStdout = false;
  #stdoutClosed = false;

  /**
   * One JSON document on stdout, on one line (SPEC §2), so scripts can read it line by line.
   * Strings are masked except under `verbatimKeys` (exec's `result`); JSON itself escapes controls.
   */
  resultJson(value: unknown, options: { verbatimKeys?: readonly string[] } = {}): Promise<void> {
    // JSON.stringify escapes C0 controls but not DEL, C1 (U+009B is a one-character CSI) and the bidi controls.
    const json = toJson(maskSecretsDeep(value, new Set(options.verbatimKeys)), 0).replace(JSON_UNESCAPED_CONTROLS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return this.#writeStdout(defuseCiCommandsInJson(json));
  }

  /** A line on stderr, even with --quiet (errors). */
  error(message: string): void {
    this.#line(this.errStyle.red(message));
  }

  /** One line: a line break in what it names (a server name from a host's config) cannot start a forged one. */
  warn(message: string): void {
    if (!this.quiet) this.#line(this.errStyle.yellow(`⚠ ${escapeOneLine(message)}`));
  }

  info(message: string): void {
    if (!this.quiet) this.#line(this.errStyle.dim(message));
  }

  verbose(message: string): void {
    if (this.verboseEnabled) this.#line(this.errStyle.dim(message));
  }

  /** A server's stderr, live, each line prefixed `[server]` (--verbose). */
  serverStderr(server: string, chunk: Buffer): void {
    const text = chunk.toString('utf8');
    const lines = text.split(/\r?\n/);
    if (lines.at(-1) === '') lines.pop();
    // Shown as the server wrote it (it is the evidence), but never interpreted by the terminal.
    for (const line of lines) this.#line(this.errStyle.dim(`[${escapeOneLine(server)}] ${escapeControls(line)}`), { evidence: true });
  }

  /**
   * A spinner on stderr (ora), or undefined when there must be none (not a TTY, --json, CI,
   * --quiet, or a terminal that reports no width). While it spins, stderr lines clear it first.
   */
  async startSpinner(text: string): Promise<Spinner | undefined> {
    if (!this.animate || !(this.stderr.columns > 0)) return undefined;
    const { default: ora } = await import('ora');
    // discardStdin: false, so that stdin keeps its mode and Ctrl-C reaches toolrun's own handler.
    const spinner = ora({ stream: this.stderr, text, discardStdin: false }).start();
    this.#spinner = spinner;
    return {
      update: (next) => {
        spinner.text = next;
      },
      stop: () => {
        spinner.stop();
        if (this.#spinner === spinner) this.#spinner = undefined;
      },
    };
  }

  #spinner: { clear(): unknown; render(): unknown; stop(): unknown; start(): unknown } | undefined;

  /** Stops the spinner while the person answers a question on stderr (an elicitation); the returned function starts it again. */
  holdSpinner(): () => void {
    const spinner = this.#spinner;
    if (!spinner) return () => {};
    spinner.stop();
    return () => {
      if (this.#spinner === spinner) spinner.start();
    };
  }

  /** Free-form stderr text (already styled by the caller). */
  note(text: string): void {
    if (!this.quiet) this.#line(text);
  }

  /**
   * One of toolrun's own GitHub Actions workflow commands (conform's `::error` annotations), already
   * encoded by its formatter: the one kind of stderr line that may start with `::`.
   */
  workflowCommand(line: string): void {
    if (!this.quiet) this.#line(line, { ownCommand: true });
  }

  /**
   * Every stderr line: secrets masked, controls escaped (or, for a server's own stderr, shown as it
   * is: the evidence), and never a CI workflow command unless it is toolrun's own.
   */
  #line(text: string, options: { evidence?: boolean; ownCommand?: boolean } = {}): void {
    const shown = options.evidence ? maskKnownSecrets(text) : escapeControls(maskSecrets(text), this.errStyle.enabled);
    const safe = options.ownCommand ? shown : defuseCiCommands(shown);
    const line = safe.endsWith('\n') ? safe : `${safe}\n`;
    if (this.#spinner) {
      this.#spinner.clear();
      this.stderr.write(line);
      this.#spinner.render();
      return;
    }
    if (this.#options.stderr || this.#stderrStreamInUse) return void this.stderr.write(line);
    try {
      // Straight to the descriptor: synchronous, so lines keep their order with what a child writes.
      writeSync(2, line);
    } catch {
      // A non-blocking pipe that is full (EAGAIN): from now on, the stream queues for us.
      this.#stderrStreamInUse = true;
      this.stderr.write(line);
    }
  }

  #stderrStreamInUse = false;
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/** JSON for stdout: BigInt as strings; indented for people, compact for --json. */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item), indent) ?? 'null';
}
