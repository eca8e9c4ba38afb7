import { readFileSync } from 'node:fs';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../errors.js';
import { describeJsonType, resultFromJson, textResult } from './sampling-result.js';

export const SCRIPT_MODEL = 'toolrun --sampling';

/**
 * `--sampling FILE`: a JSON array of replies, given to the sampling requests in the order they come
 * (across every server of the command). Each is a text (a text reply) or a whole result
 * (`{role, content, model?, stopReason?}`). Read and checked before any server starts, so a
 * mistake in the file is one usage error (exit 2), never a surprise halfway through a run.
 */
export function readSamplingScript(path: string): CreateMessageResult[] {
  const fail = (problem: string): never => {
    throw new UsageError(`--sampling ${path}: ${problem}`);
  };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(`cannot read it (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : ((error as Error).message ?? code)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(value)) return fail(`must be a JSON array of replies (each a text or a {role, content} result), found ${describeJsonType(value)}`);
  return value.map((reply: unknown, index) => {
    if (typeof reply === 'string') return textResult(reply, SCRIPT_MODEL);
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return fail(`reply ${index + 1} must be a text or a {role, content} result, found ${describeJsonType(reply)}`);
    const result = resultFromJson(reply as Record<string, unknown>, SCRIPT_MODEL);
    return typeof result === 'string' ? fail(`reply ${index + 1}: ${result}`) : result;
  });
}
