// What dist/ is built from, as one digest: scripts/build.js writes it into dist/ after a build, and
// `npm test` (scripts/test.js) builds again only when it differs. CI's `npm ci` has just built dist/
// from the same files (`prepare`), and a second `npm test` without changes has nothing to build:
// ~7 s of wall and ~14 s of CPU at the start of every such run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where a build leaves the digest of its inputs (removed with dist/ when the next build starts). */
export const INPUTS_STAMP = join('dist', '.build-inputs');

// Everything the bundles are made of, besides src/: the scripts that make them, the dependencies'
// versions (the lockfile, and npm's record of what is installed, links included), the config schema
// built in, and Node's own version (the V8 code cache). A file of a dependency edited in place in
// node_modules is not seen: `npm run build` then.
const FILES = [
  'scripts/build.js',
  'scripts/build-inputs.js',
  'scripts/chunks-to-commonjs.js',
  'scripts/make-code-cache.cjs',
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'toolrun.schema.json',
  'tsconfig.json',
];

/** The digest of every file under src/ and of FILES, with their paths, and of Node's version. */
export function buildInputsDigest(root) {
  const hash = createHash('sha256').update(process.version);
  for (const file of [...filesUnder(root, 'src'), ...FILES].sort()) {
    const path = join(root, file);
    hash.update(`\0${file}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

/**
 * What a whole build writes to INPUTS_STAMP: the digest, and `types` when it also emitted the type
 * declarations. tsc emits them only after checking every file of tsconfig.json's program, and a
 * build whose tsc reports an error fails before the stamp is written: so such a stamp says that these
 * very sources type-check (CI's `npm ci` builds so, with `prepare`).
 */
export function inputsStamp(digest, { types }) {
  return `${digest}\n${types ? 'types\n' : ''}`;
}

/** What dist/ was built from: `current` when it was built, whole, from exactly these inputs; `typeChecked` when that build type-checked them too. */
export function builtFrom(root) {
  const stamp = join(root, INPUTS_STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'cli.cjs')) || !existsSync(join(root, 'dist', 'lib', 'index.js'))) return { current: false, typeChecked: false };
  const [digest, types] = readFileSync(stamp, 'utf8').split('\n');
  const current = digest === buildInputsDigest(root);
  return { current, typeChecked: current && types === 'types' };
}

/** True when dist/ was built, whole, from exactly these inputs. */
export function isBuildCurrent(root) {
  return builtFrom(root).current;
}

function filesUnder(root, folder) {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)));
}
