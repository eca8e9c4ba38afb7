import { coerceArgWords } from '../args/coerce-args.js';
import type { ArgWord } from '../args/parse-tool-args.js';
import { readArgsOption } from '../args/read-args-option.js';
import { snakeToCamel } from '../executor/normalize-args.js';
import { UsageError } from '../errors.js';
import type { RegisteredTool } from '../registry/tool-types.js';
import type { CliContext } from './cli-context.js';
import { quoteShellWord, toolrunCommand } from '../text/quote-shell-word.js';

/** Options shared by exec, validate TOOL and time. */
export interface ToolArgumentOptions {
  args?: string;
  server?: string;
  validate: boolean;
}

/**
 * `server:tool` or `--server NAME` → the tool's name and server. Both at once must name the same
 * server (`time:get_current_time --server time` is that tool, not 'time:time:get_current_time');
 * two different servers are a usage error, since either one would be a guess.
 */
export function splitToolName(name: string, serverOption: string | undefined, command = 'exec'): { name: string; server?: string } {
  const colon = name.indexOf(':');
  if (colon <= 0) return { name, server: serverOption };
  const named = { server: name.slice(0, colon), name: name.slice(colon + 1) };
  if (serverOption === undefined || serverOption === named.server) return named;
  throw new UsageError(
    `'${name}' names MCP server '${named.server}' but --server names '${serverOption}'; give the server once: ${toolrunCommand(command, `${serverOption}:${named.name}`)}, or --server ${quoteShellWord(named.server)}`,
  );
}

/**
 * The arguments object for a call: `--args` (JSON, @file or - for stdin) with `key=value` / `key:=json`
 * words merged over it, `key=value` typed by the tool's schema (SPEC §1).
 */
export async function buildArguments(
  cli: CliContext,
  tool: RegisteredTool,
  words: ArgWord[],
  argsOption: string | undefined,
  paramMappings: Record<string, Record<string, string>>,
): Promise<Record<string, unknown>> {
  return mergeArguments(tool, words, await readBaseArguments(cli, argsOption), paramMappings);
}

/** The `--args` object (JSON, @file or - for stdin), read where the command runs (its cwd, its stdin). */
export async function readBaseArguments(cli: CliContext, argsOption: string | undefined): Promise<Record<string, unknown>> {
  return argsOption === undefined ? {} : await readArgsOption(argsOption, { readStdin: () => cli.readStdin(), signal: cli.signal });
}

/** `key=value` / `key:=json` words merged over the `--args` object, typed by the tool's schema (a session holder does this too). */
export function mergeArguments(tool: RegisteredTool, words: ArgWord[], base: Record<string, unknown>, paramMappings: Record<string, Record<string, string>>): Record<string, unknown> {
  const properties = (tool.definition.parameters.properties ?? {}) as Record<string, unknown>;
  const mapping = tool.normalizesArgs ? (paramMappings[tool.definition.name] ?? {}) : {};
  // MCP tools are called with normalized names, so a snake_case word is typed by its camelCase property.
  const own = (key: string | undefined) => (key !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined);
  const propertySchemaFor = (key: string) => own(key) ?? (tool.normalizesArgs ? own(Object.hasOwn(mapping, key) ? mapping[key] : snakeToCamel(key)) : undefined);
  return { ...base, ...coerceArgWords(words, propertySchemaFor) };
}
