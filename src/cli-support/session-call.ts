import { coerceBySchema } from '../args/coerce-args.js';
import { parseArgWords } from '../args/parse-tool-args.js';
import type { SessionCall } from '../mcp/connect/open-session.js';

/**
 * The `--call TOOL ARGS…` of doctor and check-stdout: the words are parsed now (a malformed one is
 * exit 2 before any server starts), typed later by the tool's input schema once the server listed it.
 */
export function sessionCallOf(tool: string | undefined, words: string[]): SessionCall | undefined {
  const parsedWords = parseArgWords(words);
  return tool === undefined ? undefined : { tool, args: (schema) => coerceBySchema(parsedWords, schema) };
}
