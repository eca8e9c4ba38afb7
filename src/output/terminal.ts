import type { ExecutorLogger } from '../executor/tool-executor.js';
import { shouldAnimate, shouldUseColor } from './color.js';
import { createStyle, type Style } from './style.js';

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
 */
export class Terminal implements ExecutorLogger {
  readonly json: boolean;
  readonly verboseEnabled: boolean;
  readonly quiet: boolean;
  /** Styles for stdout (never with --json) and for stderr. */
  readonly outStyle: Style;
  readonly errStyle: Style;
  readonly animate: boolean;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;

  private constructor(options: TerminalOptions, outStyle: Style, errStyle: Style) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.json = options.json;
    this.verboseEnabled = options.verbose;
    this.quiet = options.quiet;
    this.outStyle = outStyle;
    this.errStyle = errStyle;
    this.animate = shouldAnimate({ json: options.json, isTTY: Boolean(this.stderr.isTTY), env: options.env, quiet: options.quiet });
  }

  static async create(options: TerminalOptions): Promise<Terminal> {
    const stdout = options.stdout ?? process.stdout;
    const stderr = options.stderr ?? process.stderr;
    const colorFor = (stream: NodeJS.WriteStream) => shouldUseColor({ noColorFlag: options.noColorFlag, json: options.json, isTTY: Boolean(stream.isTTY), env: options.env });
    const [outStyle, errStyle] = await Promise.all([createStyle(colorFor(stdout)), createStyle(colorFor(stderr))]);
    return new Terminal(options, outStyle, errStyle);
  }

  /** Writes a result to stdout; resolves once it is flushed, so piped output is never cut off. */
  result(text: string): Promise<void> {
    const data = text.endsWith('\n') ? text : `${text}\n`;
    return new Promise((resolve) => {
      this.stdout.write(data, () => resolve());
    });
  }

  /** One JSON document on stdout, on one line (SPEC §2), so scripts can read it line by line. */
  resultJson(value: unknown): Promise<void> {
    return this.result(toJson(value, 0));
  }

  /** A line on stderr, even with --quiet (errors). */
  error(message: string): void {
    this.#line(this.errStyle.red(message));
  }

  warn(message: string): void {
    if (!this.quiet) this.#line(this.errStyle.yellow(`⚠ ${message}`));
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
    for (const line of lines) this.#line(this.errStyle.dim(`[${server}] ${line}`));
  }

  /** Free-form stderr text (already styled by the caller). */
  note(text: string): void {
    if (!this.quiet) this.#line(text);
  }

  #line(text: string): void {
    this.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** JSON for stdout: BigInt as strings; indented for people, compact for --json. */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item), indent) ?? 'null';
}
