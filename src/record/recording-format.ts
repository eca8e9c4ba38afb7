import { NotARecordingError } from '../errors.js';

/**
 * The recording format of SPEC §11, one JSON object per line:
 *   {"toolrun_recording": 1, "server": …, "command": … (secrets masked), "started": <ISO time>}
 *   {"t": <ms since start>, "dir": "send" | "recv" | "stderr", "text": "<the line>"}
 * `recv` is what the server wrote on stdout, byte-exact: a line that is not valid UTF-8 has "b64"
 * instead of "text"; the last line of a stream that did not end with a newline has "eol": false.
 * `send` is what the client wrote, `stderr` the server's stderr.
 */
export type RecordedDirection = 'send' | 'recv' | 'stderr';

export interface RecordingHeader {
  toolrun_recording: 1;
  server: string;
  command: string;
  started: string;
}

export interface RecordedLine {
  t: number;
  dir: RecordedDirection;
  text?: string;
  b64?: string;
  eol?: false;
}

const DIRECTIONS = new Set(['send', 'recv', 'stderr']);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The fields of one parsed recording line, checked before anything uses them: a recording is a
 * file anyone may hand toolrun, so a wrong type is a one-line usage error naming the line, never a
 * Node TypeError from deep inside the timeline or the scanner.
 */
export function checkRecordedLine(value: unknown, lineNumber: number): RecordedLine {
  const fail = (problem: string): never => {
    throw new NotARecordingError(`line ${lineNumber} of the recording: ${problem}`);
  };
  const line = asObject(value, fail);
  if (typeof line.t !== 'number' || !Number.isFinite(line.t)) fail(`"t" must be a number of milliseconds, found ${describe(line.t)}`);
  if (typeof line.dir !== 'string' || !DIRECTIONS.has(line.dir)) fail(`"dir" must be "send", "recv" or "stderr", found ${describe(line.dir)}`);
  if (line.text !== undefined && typeof line.text !== 'string') fail(`"text" must be a string, found ${describe(line.text)}`);
  if (line.b64 !== undefined && (typeof line.b64 !== 'string' || !BASE64.test(line.b64))) fail(`"b64" must be a base64 string, found ${describe(line.b64)}`);
  if (line.text === undefined && line.b64 === undefined) fail('it needs "text" or "b64"');
  if (line.eol !== undefined && line.eol !== false) fail(`"eol" must be false or absent, found ${describe(line.eol)}`);
  return line as unknown as RecordedLine;
}

/** The first line: the format version this toolrun reads, and the strings `mcp show` prints. */
export function checkRecordingHeader(value: unknown): RecordingHeader {
  const fail = (problem: string): never => {
    throw new NotARecordingError(`line 1 of the recording: ${problem}`);
  };
  const header = asObject(value, fail);
  if (header.toolrun_recording !== 1) fail(`format version ${describe(header.toolrun_recording)} is not one this toolrun reads (1); update toolrun`);
  if (typeof header.server !== 'string' || typeof header.command !== 'string' || typeof header.started !== 'string') fail('the header needs "server", "command" and "started" strings');
  return header as unknown as RecordingHeader;
}

function asObject(value: unknown, fail: (problem: string) => never): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(`it must be a JSON object, found ${Array.isArray(value) ? 'an array' : describe(value)}`);
  return value as Record<string, unknown>;
}

/** A short, printable description of a wrong value: short strings quoted, numbers and booleans as they are, anything else by type. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : 'a long string';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'an array' : typeof value;
}
