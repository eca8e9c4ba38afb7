import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * The absolute path of a report file a flag names (`--html FILE`), checked before any work: a folder
 * that does not exist is exit 2 at once, not after a 2-minute run whose report then has nowhere to go.
 */
export function resolveOutputPath(cwd: string, flag: string, file: string): string {
  const path = resolve(cwd, file);
  if (!existsSync(dirname(path))) throw new UsageError(`${flag} ${file}: the folder ${dirname(path)} does not exist`);
  return path;
}
