import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files under `folder` whose name matches `fileName` (test files, eval files): hidden folders and
 * the `passedOver` ones (node_modules, a snapshot or cassette folder) are not entered, nor is
 * anything deeper than 20 levels (a link loop); an unreadable folder holds nothing.
 */
export function filesUnder(folder: string, fileName: RegExp, passedOver: ReadonlySet<string>, depth = 0): string[] {
  if (depth > 20) return [];
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (entry.isDirectory()) return entry.name.startsWith('.') || passedOver.has(entry.name) ? [] : filesUnder(join(folder, entry.name), fileName, passedOver, depth + 1);
    return entry.isFile() && fileName.test(entry.name) ? [join(folder, entry.name)] : [];
  });
}
