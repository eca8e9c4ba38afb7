import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { parseJsonValue } from './parse-tool-args.js';

/**
 * Reads `--args JSON`, `--args @file.json` or `--args -` (standard input) into an arguments object.
 * `readStdin` is injected so tests and the library do not depend on the process's stdin.
 */
export async function readArgsOption(value: string, readStdin: () => Promise<string>): Promise<Record<string, unknown>> {
  let text: string;
  let where: string;
  if (value === '-') {
    where = '--args - (standard input)';
    text = await readStdin();
    if (text.trim() === '') throw new UsageError(`${where} was empty; pipe a JSON object, e.g. echo '{"expression":"2+2"}' | toolrun exec math_eval --args -`);
  } else if (value.startsWith('@')) {
    const path = value.slice(1);
    where = `--args ${value}`;
    if (path === '') throw new UsageError(`--args @ needs a file name, e.g. --args @args.json`);
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
      throw new UsageError(`cannot read ${where}: ${reason}; check the path (relative to the current folder)`);
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

/** All of standard input as text; resolves '' at once when stdin is a TTY (nothing piped). */
export async function readAllStdin(stream: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stream.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
