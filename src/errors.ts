import { quoteShellWord } from './text/quote-shell-word.js';

/**
 * Exit codes, as documented in the README. One table so that every command agrees.
 */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  CONFIG: 3,
  UNREACHABLE: 4,
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Machine-readable kind of an error, carried into `--json` output as `error_kind`. */
export type ErrorKind = 'usage' | 'config' | 'not_found' | 'invalid_args' | 'tool_error' | 'timeout' | 'unreachable' | 'interrupted';

/**
 * The one error class toolrun throws on purpose. `message` is the one line a person reads
 * (problem and fix); `kind` decides the exit code; `cause` keeps the original for --verbose.
 */
export class ToolrunError extends Error {
  readonly kind: ErrorKind;
  /** Supporting lines shown under the message (a dead server's stderr tail), never part of it. */
  readonly details: string[];
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown; details?: string[] }) {
    super(message, options);
    this.name = 'ToolrunError';
    this.kind = kind;
    this.details = options?.details ?? [];
  }
}

export class UsageError extends ToolrunError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage', message, options);
    this.name = 'UsageError';
  }
}

/** Where in a config file a problem is: the file (null: no file, the embedded default) and the JSON path in it. */
export interface ConfigPlace {
  file: string | null;
  /** `mcpServers.db.env.TOKEN`, `tools[2].parameters`; absent for problems of the whole file. */
  jsonPath?: string;
  /** The place is in a host's file (`--host`) whose syntax has no `${NAME:-default}`: the host's name, so no fix suggests one. */
  hostWithoutDefaults?: string;
}

/**
 * A config problem, with its place kept apart from what is wrong (`detail`), so that a caller can
 * show the detail under its own heading (doctor's config step) without taking the message apart.
 * The message is `FILE: JSON.PATH: detail`, or the detail alone for problems of a file that has no
 * readable content (it names the file itself).
 */
export class ConfigError extends ToolrunError {
  /** What kind of config problem, for callers that choose a fix ('unset-variable', 'host-only-variable'). */
  readonly code: string | undefined;
  readonly file: string | null | undefined;
  readonly jsonPath: string | undefined;
  readonly detail: string;
  constructor(detail: string, options?: { cause?: unknown; code?: string; place?: ConfigPlace; file?: string }) {
    const place = options?.place;
    super('config', place ? `${place.file ?? 'config'}${place.jsonPath ? `: ${place.jsonPath}` : ''}: ${detail}` : detail, options);
    this.name = 'ConfigError';
    this.code = options?.code;
    this.file = place?.file ?? options?.file;
    this.jsonPath = place?.jsonPath;
    this.detail = detail;
  }
}

export class ToolNotFoundError extends ToolrunError {
  readonly suggestions: string[];
  constructor(toolName: string, suggestions: string[]) {
    // A server's tool names: each as it is typed into a shell (`'a;b'`, `$'\x1b…'`), never run by a paste, never an escape.
    const hint = suggestions.length > 0 ? `. Did you mean: ${suggestions.map(quoteShellWord).join(', ')}?` : '. Run `toolrun list` to see the available tools.';
    super('not_found', `Tool '${toolName}' not found${hint}`);
    this.name = 'ToolNotFoundError';
    this.suggestions = suggestions;
  }
}

/** A server name that is not in the config (usage, exit 2); the CLI may add which host has it. */
export class UnknownServerError extends UsageError {
  readonly serverName: string;
  constructor(serverName: string, message: string) {
    super(message);
    this.name = 'UnknownServerError';
    this.serverName = serverName;
  }
}

export class ServerUnavailableError extends ToolrunError {
  readonly serverName: string;
  constructor(serverName: string, message: string, options?: { cause?: unknown }) {
    super('unreachable', message, options);
    this.name = 'ServerUnavailableError';
    this.serverName = serverName;
  }
}

/**
 * A server toolrun does not start because its host would not (not approved, rejected, untrusted) or
 * because only the host can start it: unreachable for the command (exit 4), like a server that failed.
 */
export class ServerNotStartedError extends ServerUnavailableError {
  readonly refusal: { kind: string; reason: string; fix: string };
  constructor(serverName: string, refusal: { kind: string; reason: string; fix: string }) {
    super(serverName, `server '${serverName}' not started: ${refusal.reason}; ${refusal.fix}`);
    this.name = 'ServerNotStartedError';
    this.refusal = refusal;
  }
}

const EXIT_CODE_BY_KIND: Record<ErrorKind, ExitCodeValue> = {
  usage: ExitCode.USAGE,
  not_found: ExitCode.USAGE,
  invalid_args: ExitCode.USAGE,
  config: ExitCode.CONFIG,
  tool_error: ExitCode.FAILURE,
  timeout: ExitCode.FAILURE,
  unreachable: ExitCode.UNREACHABLE,
  interrupted: ExitCode.INTERRUPTED,
};

export function exitCodeForKind(kind: ErrorKind): ExitCodeValue {
  return EXIT_CODE_BY_KIND[kind];
}

/** A message for any thrown value, including non-Errors (`throw 'x'`, `throw {code: 1}`). */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined was thrown';
  if (value === null) return 'null was thrown';
  try {
    return `non-Error thrown: ${JSON.stringify(value)}`;
  } catch {
    return `non-Error thrown: ${String(value)}`;
  }
}

/** A file given as a recording (SPEC §11) that is none: its first line is not the header, or a line is not JSON. */
export class NotARecordingError extends ToolrunError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'NotARecordingError';
  }
}
