/**
 * A `toolrun test` file as read (SPEC §18): YAML or JSON, each step with its place in the file so
 * that every error and every failure names FILE:LINE:COLUMN.
 */

/** A place in a test file, 1-based. */
export interface FilePlace {
  line: number;
  column: number;
}

export type StepAction =
  | { kind: 'call'; tool: string }
  | { kind: 'read'; uri: string }
  | { kind: 'get'; prompt: string }
  | { kind: 'list'; what: 'tools' | 'resources' | 'prompts' | 'skills' }
  /** A skill of the Skills extension, by name, path or SKILL.md URI: its entry and every file verified. */
  | { kind: 'skill'; skill: string };

/** `path:` values and `error:` messages may be a value, or an object of these checks. */
export interface ValueMatcher {
  equals?: unknown;
  contains?: unknown;
  matches?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
  length?: number;
  gte?: number;
  lte?: number;
}

export interface Expectation {
  text?: string;
  contains?: string | string[];
  matches?: string;
  json?: unknown;
  schema?: Record<string, unknown>;
  path?: Record<string, unknown>;
  error?: boolean | string | { code?: number; message?: string | ValueMatcher };
  snapshot?: boolean;
  latencyMs?: { max: number };
  notifications?: { progress?: boolean | { min?: number; monotonic?: boolean } };
}

export interface TestStep {
  name: string;
  place: FilePlace;
  action: StepAction;
  /** SERVER of `call: SERVER:TOOL`, or `server:` of the step, else the file's. */
  server?: string;
  /** Where `server` is named in the file (the `call: SERVER:TOOL`, or the step's or the file's `server:` line). */
  serverPlace?: FilePlace;
  args: Record<string, unknown>;
  expect: Expectation;
  /** Name → JSONPath into the result, for `${name}` in later steps. */
  save: Record<string, string>;
  /** JSONPaths left out of the snapshot comparison. */
  ignore: string[];
  skip?: string | true;
  only: boolean;
  timeoutMs?: number;
  /** How the step answers a server that asks back (as --answers, sampling replies and --root do for a command). */
  asks?: StepAsks;
  /** false: the call is sent as written (`validate: false` of the step or the file): toolrun checks neither the tool's name nor the arguments, and types nothing. */
  validate?: false;
}

/** Per step: elicitation rounds (the --answers file's format), sampling replies (texts, one per request), roots (absolute folders). */
export interface StepAsks {
  answers?: Array<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;
  sampling?: string[];
  roots?: string[];
}

export interface TestFile {
  path: string;
  server?: string;
  tests: TestStep[];
  setup: TestStep[];
  teardown: TestStep[];
  /** The environment variables `${NAME}` may read: those the file's `env:` list or `--env` allow, when set. */
  env?: Record<string, string>;
}
