import { INPUT_LIMIT_BYTES, InputTooLargeError, openInput, readBounded } from '../input/open-input.js';
import { ToolrunError, UsageError } from '../errors.js';
import { parseJsonValue } from './parse-tool-args.js';

/** Where `--args` text comes from besides the option itself: standard input, and Ctrl-C. */
export interface ArgsInput {
  readStdin(): Promise<string>;
  signal?: AbortSignal;
}

/**
 * Reads `--args JSON`, `--args @file.json` or `--args -` (standard input) into an arguments object.
 * Files and stdin are read up to 64 MB and stay interruptible (a FIFO nobody writes to, /dev/zero).
 */
export async function readArgsOption(value: string, input: ArgsInput): Promise<Record<string, unknown>> {
  let text: string;
  let where: string;
  if (value === '-') {
    where = '--args - (standard input)';
    text = await input.readStdin().catch((error: unknown) => rethrowReadError(error, where));
    if (text.trim() === '') throw new UsageError(`${where} was empty; pipe a JSON object, e.g. echo '{"expression":"2+2"}' | toolrun exec math_eval --args -`);
  } else if (value.startsWith('@')) {
    const path = value.slice(1);
    where = `--args ${value}`;
    if (path === '') throw new UsageError(`--args @ needs a file name, e.g. --args @args.json`);
    try {
      text = await readBounded(await openInput(path), INPUT_LIMIT_BYTES, input.signal);
    } catch (error) {
      rethrowReadError(error, where);
    }
  } else {
    where = '--args';
    text = value;
  }
  const parsed = parseJsonValue(text, where, `give a JSON object, e.g. --args '{"expression":"2+2"}'`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const found = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    throw new UsageError(`${where} must be a JSON object of arguments, found ${found}; e.g. --args '{"expression":"2+2"}'`);
  }
  return parsed as Record<string, unknown>;
}

function rethrowReadError(error: unknown, where: string): never {
  if (error instanceof InputTooLargeError) throw new UsageError(`${where} is ${error.message}; arguments are read up to that size. Pass a smaller JSON object`);
  if (error instanceof ToolrunError) throw error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
  throw new UsageError(`cannot read ${where}: ${reason}; check the path (relative to the current folder)`);
}

/** All of standard input as text, up to 64 MB; resolves '' at once when stdin is a TTY (nothing piped). */
export async function readAllStdin(signal?: AbortSignal, stream: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stream.isTTY) return '';
  return readBounded(stream, INPUT_LIMIT_BYTES, signal);
}
