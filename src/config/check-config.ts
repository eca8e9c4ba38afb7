import { buildConfig, isObject, type Json } from './build-config.js';
import { configProblems, childPath, type ConfigProblem } from './config-problems.js';
import validateConfig from './config-validator.generated.js';
import type { ToolrunConfig } from './config-types.js';

export type { ConfigProblem } from './config-problems.js';

/**
 * Checks the parsed JSON of a config file against toolrun.schema.json (the schema editors use, run
 * by Ajv: precompiled in config-validator.generated.js) and turns it into a ToolrunConfig. Every
 * problem is collected, in toolrun's own words (config-problems.ts), so `toolrun validate` can show
 * them all; the config is only usable when none were found (until then it holds the valid parts).
 */
export function checkConfig(raw: unknown, filePath: string | null, baseDir: string): { config: ToolrunConfig; problems: ConfigProblem[] } {
  const problems = validateConfig(raw) ? [] : configProblems(validateConfig.errors ?? [], raw);
  if (isObject(raw)) problems.push(...duplicateServers(raw));
  const invalid = (path: string) => problems.some((problem) => problem.path === path || problem.path.startsWith(`${path}.`) || problem.path.startsWith(`${path}[`));
  return { config: buildConfig(isObject(raw) ? raw : {}, filePath, baseDir, invalid), problems };
}

/** A name in both `mcpServers` and `servers` (which the schema cannot see). */
function duplicateServers(raw: Json): ConfigProblem[] {
  if (!isObject(raw.mcpServers) || !isObject(raw.servers)) return [];
  return Object.keys(raw.servers)
    .filter((name) => Object.hasOwn(raw.mcpServers as Json, name))
    .map((name) => ({ path: childPath('servers', name), message: `server '${name}' is defined in both mcpServers and servers; keep one` }));
}
