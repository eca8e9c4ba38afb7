import type { LogLevel } from '../protocol/log-levels.js';
import type { Terminal } from '../output/terminal.js';

/** Options every command accepts (SPEC §1), before or after the command name. */
export interface GlobalOptions {
  config?: string;
  /** `--host NAME[:SCOPE]`: a host's servers instead of a toolrun config (SPEC §13). */
  host?: string;
  /** `--terminal-env`: with `--host`, start stdio servers as toolrun does (your environment), not as the host does. */
  terminalEnv: boolean;
  json: boolean;
  verbose: boolean;
  quiet: boolean;
  color: boolean;
  timeout?: number;
  /** `--protocol`: `auto` or a protocol revision, for every server of the command (SPEC §10). */
  protocol?: string;
  /** `--log-level`: the least severe server log level asked for and shown (SPEC §15). */
  logLevel?: LogLevel;
  /** `--trace-parent`: a caller's W3C traceparent to continue (SPEC §23). */
  traceParent?: string;
  /** `--otlp`: the OTLP/HTTP collector the command's spans go to (SPEC §23). */
  otlp?: string;
  /** false with `--no-session`: never use a session holder (SPEC §12). */
  session: boolean;
  /** false with `--no-cache`: never use the tool index cache (SPEC §12). */
  cache: boolean;
  /** How servers that ask back are answered (SPEC §15). */
  askBack: AskBackFlags;
}

/** The flags of SPEC §15, as given. */
export interface AskBackFlags {
  /** `--answer field=value`, in order. */
  answer: string[];
  /** `--answers FILE`: scripted elicitation rounds. */
  answers?: string;
  /** `--elicit`: every elicitation answered this way. */
  elicit?: 'accept' | 'decline' | 'cancel';
  samplingReply?: string;
  sampling?: string;
  samplingCommand?: string;
  /** `--root DIR`, in order. */
  root: string[];
}

/** What a command's action gets: the parsed globals, the terminal, and the process's surroundings. */
export interface CliContext {
  globals: GlobalOptions;
  terminal: Terminal;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The command line as given (node, script, ...args), for errors that show the command to run instead. */
  argv?: string[];
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  readStdin(): Promise<string>;
  /** Ends the command with `reason` from inside a call (an answers file that does not fit, an elicitation loop): aborts `signal` with it. */
  endCommand?(reason: Error): void;
  /** Registers cleanup to run before exit, on every path (success, error, signal). */
  onExit(cleanup: () => Promise<void>): void;
}

/** A command's action: returns its exit code; throws ToolrunError for the documented failures. */
export type CommandAction = (cli: CliContext) => Promise<number>;

/** Runs a command action inside the CLI's error handling and cleanup. */
export type CommandRunner = (action: CommandAction) => Promise<void>;
