// Sync on purpose: a config is a few kB, and node:fs/promises costs ~2 ms of startup to load.
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';
import { INPUT_LIMIT_BYTES, InputTooLargeError, openInput, readBounded } from '../input/open-input.js';
import { buildConfig, defaultConfig } from './build-config.js';
import type { ConfigProblem } from './config-problems.js';
import type { ToolrunConfig } from './config-types.js';
import { findConfigPath, type ConfigLocation } from './find-config-path.js';
import { parseJsonc } from './parse-jsonc.js';
import { currentCwd, currentEnv } from '../run-environment.js';

export interface LoadConfigOptions {
  /** `--config` value; relative to `cwd`. */
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Config texts already found valid: not checked again (cache/valid-configs.ts). */
  validConfigs?: ValidConfigMemo;
}

/** Remembers config texts that were checked and found valid. */
export interface ValidConfigMemo {
  has(text: string): boolean;
  add(text: string): void;
}

const ORIGIN_TEXT: Record<ConfigLocation['origin'], string> = {
  '--config': 'named by --config',
  TOOLRUN_CONFIG: 'named by $TOOLRUN_CONFIG',
  cwd: 'found in the current folder',
  default: 'embedded default',
};

/**
 * Finds, reads, parses and checks the configuration (SPEC §3). Throws ConfigError with the file,
 * the JSON path and, for syntax errors, line:column. Servers' `${VAR}`s are expanded later, per
 * server, so that one server's missing secret does not stop local tools.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ToolrunConfig> {
  const cwd = options.cwd ?? currentCwd();
  const location = findConfigPath(options.configPath, options.env ?? currentEnv(), cwd);
  if (location.path === null) return defaultConfig(cwd);
  const { config, problems } = await readConfigFile(location, options.validConfigs);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''}: run 'toolrun validate')` : '';
    throw new ConfigError(`${problems[0]!.message}${more}`, { place: { file: location.path, jsonPath: problems[0]!.path } });
  }
  return config;
}

/** Reads and checks a config file, returning every problem instead of throwing on checks (for `validate`). */
export async function readConfigFile(location: ConfigLocation, validConfigs?: ValidConfigMemo): Promise<{ config: ToolrunConfig; problems: ConfigProblem[] }> {
  const path = location.path!;
  let text: string;
  try {
    const stats = statSync(path);
    if (stats.isFile() && stats.size > INPUT_LIMIT_BYTES) throw new InputTooLargeError(INPUT_LIMIT_BYTES);
    // A FIFO or a device (<(generate-config), /dev/zero): read through the event loop, bounded and interruptible.
    text = stats.isFile() || stats.isDirectory() ? readFileSync(path, 'utf8') : await readBounded(await openInput(path), INPUT_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof InputTooLargeError) throw new ConfigError(`config file ${path} is ${error.message}; a config is a few kB. Check that --config names the right file.`, { file: path });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ConfigError(
        `config file not found: ${path} (${ORIGIN_TEXT[location.origin]}). Check the path, or leave out --config/TOOLRUN_CONFIG to use ./toolrun.config.json or the built-in default.`,
        { file: path },
      );
    if (code === 'EISDIR') throw new ConfigError(`config path is a folder, not a file: ${path}. Name the JSON file itself, e.g. ${path}/toolrun.config.json.`, { file: path });
    if (code === 'EACCES') throw new ConfigError(`config file not readable: ${path} (permission denied). Fix its permissions.`, { file: path });
    throw new ConfigError(`config file unreadable: ${path}: ${(error as Error).message}`, { cause: error, file: path });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new ConfigError(`config file is empty: ${path}. Put a JSON object in it, e.g. {"mcpServers": {}}.`, { file: path });
  const parsed = parseJsonc(text);
  if ('problem' in parsed) {
    const { line, column, message, syntax } = parsed.problem;
    throw new ConfigError(`${path}:${line}:${column}: ${syntax ? 'invalid JSON: ' : ''}${message}`, { file: path });
  }
  if (validConfigs?.has(text)) {
    const config = buildConfig(parsed.value as Record<string, unknown>, path, dirname(path), () => false);
    config.sourceText = text;
    return { config, problems: [] };
  }
  // Loaded only for a config file to check: the embedded default, and a known text, need none.
  const { checkConfig } = await import('./check-config.js');
  const checked = checkConfig(parsed.value, path, dirname(path));
  checked.config.sourceText = text;
  if (checked.problems.length === 0) validConfigs?.add(text);
  return checked;
}
