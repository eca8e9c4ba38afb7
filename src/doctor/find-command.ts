import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export type CommandLookup = { found: true; path: string } | { found: false; reason: string };

/** Where `command` would be found when spawned from `cwd` with `pathVariable`, like the shell does. */
export function findCommand(command: string, cwd: string, pathVariable: string | undefined): CommandLookup {
  if (command.includes('/') || isAbsolute(command)) {
    const path = resolve(cwd, command);
    return isExecutable(path) ? { found: true, path } : { found: false, reason: exists(path) ? `${path} is not executable (chmod +x it)` : `${path} does not exist` };
  }
  for (const folder of (pathVariable ?? '').split(delimiter)) {
    if (!folder) continue;
    const path = join(folder, command);
    if (isExecutable(path)) return { found: true, path };
  }
  return { found: false, reason: `'${command}' is not on PATH` };
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
