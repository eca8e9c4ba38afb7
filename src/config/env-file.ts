import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readWholeFile } from '../files/read-whole-file.js';
import { ConfigError, type ConfigPlace } from '../errors.js';

/** An env file is a handful of lines: a larger one is a mistake (a binary, a log), not read. */
const ENV_FILE_LIMIT_BYTES = 1 << 20;

/**
 * The variables of a stdio entry's `envFile`, parsed as VS Code parses it (microsoft/vscode
 * src/vs/base/common/envfile.ts; Cursor documents the same field): `NAME=value` or `NAME: value`,
 * an optional `export `, `#` comments (also after an unquoted value), values in '…', "…" or `…`,
 * and in "…" only \n and \r unescaped; no variable expansion. A missing or unreadable file is a
 * config error, as VS Code does not start the server then ("Failed to read envFile").
 */
export function readEnvFile(path: string, where: ConfigPlace): Record<string, string> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? `envFile ${path} does not exist` : `envFile ${path} cannot be read (${code ?? (error as Error).message})`, { place: where });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new ConfigError(`envFile ${path} is not a regular file`, { place: where });
    const bytes = stats.size > ENV_FILE_LIMIT_BYTES ? undefined : readWholeFile(fd, stats.size, ENV_FILE_LIMIT_BYTES);
    if (!bytes) throw new ConfigError(`envFile ${path} is larger than 1 MB: not read`, { place: where });
    return parseEnvFile(bytes.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

const LINE = /^\s*(?:export\s+)?([\w.-]+)\s*[=:]\s*(.*?)\s*$/;

export function parseEnvFile(text: string): Record<string, string> {
  const variables: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of text.split(/\r?\n/)) {
    const match = LINE.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    const [, name, raw] = match as unknown as [string, string, string];
    const quote = raw[0];
    let value: string;
    if ((quote === '"' || quote === "'" || quote === '`') && raw.indexOf(quote, 1) > 0) {
      value = raw.slice(1, raw.indexOf(quote, 1));
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    } else {
      value = raw.replace(/\s+#.*$/, '').trim();
    }
    variables[name] = value;
  }
  return variables;
}
