import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolrunConfig } from '../config/config-types.js';
import { ConfigError, UsageError } from '../errors.js';
import type { AskBack, ClientRoot } from '../mcp/ask-back.js';

/**
 * The roots this command offers (SPEC §15): the config's `roots` (already absolute), then each
 * `--root DIR` (relative to the current folder), as `file://` URIs; undefined when there are none,
 * so roots are not advertised. A folder that does not exist is caught here, before any server
 * starts: a config error (exit 3) naming its place, or a usage error (exit 2) for a flag.
 */
export function rootsFor(dirs: string[], cwd: string, config?: Pick<ToolrunConfig, 'roots' | 'path'>): AskBack['roots'] {
  const fromConfig = (config?.roots ?? []).map((path, index) => {
    if (!isFolder(path)) throw new ConfigError(notAFolder(path), { place: { file: config?.path ?? null, jsonPath: `roots[${index}]` } });
    return rootOf(path);
  });
  const fromFlags = dirs.map((dir) => {
    const path = resolve(cwd, dir);
    if (!isFolder(path)) throw new UsageError(`--root ${dir}: ${notAFolder(path)}`);
    return rootOf(path);
  });
  const roots = [...fromConfig, ...fromFlags];
  return roots.length > 0 ? () => roots : undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function rootOf(path: string): ClientRoot {
  return { uri: pathToFileURL(path).href, name: basename(path) || path };
}

/** Why a root is refused, truly: a file is not "no such folder". */
function notAFolder(path: string): string {
  return existsSync(path) ? `${path} is a file, not a folder` : `no such folder: ${path}`;
}
