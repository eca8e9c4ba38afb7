import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';
import { ROOT } from './run-toolrun.js';

/**
 * Real bundles for the tests, packed by the toolkit's own packExtension (what `mcpb pack` runs), from
 * servers in this repository's node_modules; never committed (they weigh megabytes). A bundle holds
 * what its folder holds minus the toolkit's EXCLUDE_PATTERNS (anthropics/mcpb src/node/files.ts), so a
 * node bundle ships its production node_modules, as the toolkit's README asks ("Bundle all
 * dependencies": `npm install --production` in the bundle's folder before packing).
 */

const SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory');

export const MEMORY_MANIFEST = {
  manifest_version: '0.3',
  name: 'server-memory',
  display_name: 'Knowledge Graph Memory',
  version: '2026.8.31',
  description: "@modelcontextprotocol/server-memory as a bundle, for toolrun's tests",
  author: { name: 'Model Context Protocol a Series of LF Projects, LLC.' },
  server: {
    type: 'node',
    entry_point: 'dist/index.js',
    mcp_config: { command: 'node', args: ['${__dirname}/dist/index.js'], env: { MEMORY_FILE_PATH: '${__dirname}/memory.jsonl' } },
  },
  compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18' } },
};

const packed = new Map<boolean, Promise<string>>();

/**
 * The memory server packed into a .mcpb (`withDependencies: false` leaves node_modules out), once per
 * test file: packing takes ~2 s, and the bundle is only read (a test that changes it copies it first).
 */
export function packMemoryBundle(withDependencies: boolean): Promise<string> {
  if (!packed.has(withDependencies)) packed.set(withDependencies, packMemoryBundleAnew(withDependencies));
  return packed.get(withDependencies)!;
}

async function packMemoryBundleAnew(withDependencies: boolean): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'toolrun-mcpb-pack-'));
  const folder = join(work, 'server-memory');
  mkdirSync(folder);
  cpSync(join(SERVER, 'dist'), join(folder, 'dist'), { recursive: true });
  cpSync(join(SERVER, 'package.json'), join(folder, 'package.json'));
  writeFileSync(join(folder, 'manifest.json'), JSON.stringify(MEMORY_MANIFEST, null, 2));
  if (withDependencies) {
    mkdirSync(join(folder, 'node_modules'));
    // The toolkit's file walk follows symbolic links (statSync), so a link to each package of the
    // closure puts the package's files in the zip without copying them here first.
    for (const name of productionClosure(SERVER)) {
      mkdirSync(dirname(join(folder, 'node_modules', name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(folder, 'node_modules', name), 'dir');
    }
  }
  return packFolder(folder, join(work, withDependencies ? 'server-memory.mcpb' : 'server-memory-no-deps.mcpb'));
}

/** Packs a folder with the toolkit's packExtension; throws if the toolkit refuses it. */
export async function packFolder(folder: string, output: string): Promise<string> {
  const { packExtension } = await import('@anthropic-ai/mcpb');
  // Its validateManifest prints "Manifest schema validation passes!" to stdout even when silent.
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    if (!(await packExtension({ extensionPath: folder, outputPath: output, silent: true }))) throw new Error(`mcpb could not pack ${folder}`);
  } finally {
    log.mockRestore();
  }
  return output;
}

/**
 * The names of the packages a production install of `packageDir` holds at its top level: its
 * dependencies and theirs, resolved as Node resolves them from this repository (a package nested in
 * another's node_modules travels inside it).
 */
function productionClosure(packageDir: string): string[] {
  const hoisted = new Set<string>();
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = resolvePackage(name, dir);
      if (!found) continue;
      if (found === join(ROOT, 'node_modules', name)) hoisted.add(name);
      visit(found);
    }
  };
  visit(packageDir);
  return [...hoisted].sort();
}

function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === ROOT || dirname(dir) === dir) return undefined;
  }
}
