import { closeSync, ftruncateSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { currentCwd } from '../run-environment.js';
import { LineSplitter, type RawLine } from '../process/line-splitter.js';
import { NotARecordingError } from '../errors.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { openOwnFileForWriting } from '../files/open-own-file.js';
import { checkRecordedLine, checkRecordingHeader, type RecordedDirection, type RecordedLine, type RecordingHeader } from './recording-format.js';

export type { RecordedDirection, RecordedLine, RecordingHeader } from './recording-format.js';

const HEADER_START = '{"toolrun_recording":';

/**
 * Reads a recording as it streams in: checks the header, parses each line, and hands on the header
 * and the entries; a line that is not JSON is a NotARecordingError naming it. The first bytes are
 * checked at once, so a large file that is no recording is not read to its first newline.
 */
export function recordingReader(onEntry: (entry: RecordedLine) => void, onHeader?: (header: RecordingHeader) => void): { push(chunk: Buffer): void; end(): void } {
  let header: RecordingHeader | undefined;
  let first = true;
  const splitter = new LineSplitter((line) => {
    if (!header) {
      header = checkRecordingHeader(parseLine(line));
      onHeader?.(header);
      return;
    }
    onEntry(checkRecordedLine(parseLine(line), line.lineNumber));
  }, Number.MAX_SAFE_INTEGER);
  return {
    push: (chunk) => {
      if (first && chunk.length > 0 && !isRecordingStart(chunk))
        throw new NotARecordingError('not a toolrun recording: its first line is not {"toolrun_recording": 1, …} (check-stdout --file reads raw captures)');
      first = false;
      splitter.push(chunk);
    },
    end: () => {
      splitter.end();
      if (!header) throw new NotARecordingError('the recording is empty');
    },
  };
}

function parseLine(line: RawLine): unknown {
  try {
    return JSON.parse(line.bytes.toString('utf8')) as unknown;
  } catch {
    throw new NotARecordingError(`line ${line.lineNumber} of the recording is not JSON; a recording is one JSON object per line`);
  }
}

/** Does this first line start a recording (rather than a plain stdout capture)? */
export function isRecordingStart(firstBytes: Buffer): boolean {
  return firstBytes.subarray(0, HEADER_START.length).toString('latin1') === HEADER_START;
}

/** A recorded line's bytes, as the stream had them (with its newline unless "eol": false). */
export function recordedBytes(line: RecordedLine): Buffer {
  const bytes = line.b64 !== undefined ? Buffer.from(line.b64, 'base64') : Buffer.from(line.text ?? '', 'utf8');
  return line.eol === false ? bytes : Buffer.concat([bytes, NEWLINE]);
}

const NEWLINE = Buffer.from('\n');
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Writes a recording as the bytes arrive (synchronously: memory stays flat under a flood, and a
 * Ctrl-C keeps everything received so far). Each direction is split into lines on its own.
 */
export class RecordingWriter {
  readonly path: string;
  #fd: number | undefined;
  #started = performance.now();
  #header: RecordingHeader;
  #splitters: Record<RecordedDirection, LineSplitter>;
  /** Lines written per direction. */
  counts: Record<RecordedDirection, number> = { send: 0, recv: 0, stderr: 0 };

  /**
   * Throws UnsafePathError (a link, another user's file or folder: see openOwnFileForWriting) or the
   * fs error (ENOENT, EACCES) when PATH cannot be written.
   */
  constructor(path: string, server: string, command: string) {
    // A relative path is from the running command's folder (the library's `cwd` option), not this process's.
    this.path = resolve(currentCwd(), path);
    this.#fd = openOwnFileForWriting(this.path);
    this.#header = { toolrun_recording: 1, server, command: maskSecrets(command), started: new Date().toISOString() };
    this.#splitters = this.#newSplitters();
    this.#writeHeader();
  }

  /** A new connection attempt (a new process): the recording starts over. */
  restart(): void {
    if (this.#fd === undefined) return;
    ftruncateSync(this.#fd, 0);
    this.#position = 0;
    this.#started = performance.now();
    this.#header = { ...this.#header, started: new Date().toISOString() };
    this.#splitters = this.#newSplitters();
    this.counts = { send: 0, recv: 0, stderr: 0 };
    this.#writeHeader();
  }

  write(direction: RecordedDirection, chunk: Buffer): void {
    this.#splitters[direction].push(chunk);
  }

  /** Writes the unterminated last lines, and closes the file. */
  close(): void {
    for (const splitter of Object.values(this.#splitters)) splitter.end();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #newSplitters(): Record<RecordedDirection, LineSplitter> {
    // No line cut short: a recording keeps what the server wrote, however long (the scan reports size).
    const splitter = (direction: RecordedDirection) => new LineSplitter((line) => this.#record(direction, line), Number.MAX_SAFE_INTEGER);
    return { send: splitter('send'), recv: splitter('recv'), stderr: splitter('stderr') };
  }

  #record(direction: RecordedDirection, line: RawLine): void {
    const entry: RecordedLine = { t: Math.round((performance.now() - this.#started) * 1000) / 1000, dir: direction };
    try {
      entry.text = decoder.decode(line.bytes);
    } catch {
      entry.b64 = line.bytes.toString('base64');
    }
    if (!line.terminated) entry.eol = false;
    this.counts[direction]++;
    this.#append(`${JSON.stringify(entry)}\n`);
  }

  #position = 0;

  #writeHeader(): void {
    this.#append(`${JSON.stringify(this.#header)}\n`);
  }

  #append(text: string): void {
    if (this.#fd === undefined) return;
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(this.#fd, bytes, written, bytes.length - written, this.#position + written);
    this.#position += bytes.length;
  }
}
