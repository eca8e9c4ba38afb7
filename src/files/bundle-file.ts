import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A file of the package, named from dist/ (`session-holder.js`, `../bin/toolrun.js`). Built, the code
 * that asks sits in dist/ (the CLI) or dist/lib/ (the library, whose runCli runs every command too);
 * from source (tests) it is src/files/, and the built file is the one wanted. The first that exists
 * is returned; else the dist/ one, for the caller's own "missing" message.
 */
export function bundleFile(pathFromDist: string): string {
  const candidates = ['./', '../', '../../dist/'].map((folder) => fileURLToPath(new URL(folder + pathFromDist, import.meta.url)));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}
