import { lstatSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ToolrunError } from '../../errors.js';
import { formatCassette, type Cassette } from './cassette-files.js';
import { replaceFileAtomically } from '../../files/write-file-safely.js';

/**
 * After `--record`: the cassettes of one eval file's folder (`__cassettes__/<file>/`) that a profile
 * (a model label and host) recorded before and did not use this time are that profile's no longer.
 * A cassette no profile uses any more is deleted, then a case folder left empty. Cassettes that
 * name no profile (written by hand, or by an earlier toolrun) and files that are not cassettes are
 * left alone: only what a recording made is removed. Returns the paths deleted.
 *
 * `used` maps each case folder name of the file to the keys this recording wrote there; a case
 * folder it does not name belongs to a case the file no longer has, so none of its keys were used.
 * A case whose recording failed is in `skip` (the caller puts it there): its cassettes stay as they were.
 */
export function pruneCassettes(fileFolder: string, profile: string, used: Map<string, Set<string>>, skip: Set<string>): string[] {
  const removed: string[] = [];
  for (const caseName of folderNames(fileFolder)) {
    if (skip.has(caseName)) continue;
    const caseFolder = join(fileFolder, caseName);
    const keep = used.get(caseName) ?? new Set<string>();
    let left = 0;
    for (const name of readdirSync(caseFolder)) {
      left++;
      if (!name.endsWith('.json') || keep.has(name.slice(0, -'.json'.length))) continue;
      const path = join(caseFolder, name);
      const cassette = lstatSync(path).isFile() ? readRecorded(path) : undefined;
      if (!cassette?.profiles?.includes(profile)) continue;
      const profiles = cassette.profiles.filter((each) => each !== profile);
      try {
        if (profiles.length > 0) replaceFileAtomically(path, Buffer.from(formatCassette({ ...cassette, profiles }), 'utf8'), { durable: true });
        else {
          unlinkSync(path);
          removed.push(path);
          left--;
        }
      } catch (error) {
        throw new ToolrunError('tool_error', `cannot remove the unused cassette ${path}: ${(error as Error).message}`, { cause: error });
      }
    }
    if (left === 0) rmdirSync(caseFolder);
  }
  return removed;
}

/** The case folders under a file's folder (real folders only: a link planted there is not followed). */
function folderNames(fileFolder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(fileFolder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => lstatSync(join(fileFolder, name)).isDirectory());
}

/** A file that reads as a cassette with profiles, or undefined (not ours to remove). */
function readRecorded(path: string): Cassette | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Cassette> | null;
    if (!parsed || typeof parsed.key !== 'string' || !Array.isArray(parsed.profiles) || !parsed.profiles.every((each) => typeof each === 'string')) return undefined;
    return parsed as Cassette;
  } catch {
    return undefined;
  }
}
