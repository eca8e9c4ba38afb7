import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cacheDirectory } from '../cache/cache-directory.js';
import { buildConfig } from '../config/build-config.js';
import type { PackagedSource, RawServerConfig, ToolrunConfig } from '../config/config-types.js';
import { ConfigError } from '../errors.js';
import type { ComposedLaunch, VerifyFinding } from './verify-types.js';
import { answerNpxInstall } from './answer-npx-install.js';

/** Marks a bundle unpacked whole into the cache: a folder without it is a copy cut short, made again. */
const COMPLETE_MARK = '.toolrun-unpacked';

/**
 * Config entries that name a package rather than a command (SPEC §25): `{"bundle": "x.mcpb",
 * "userConfig": {…}}` and `{"serverJson": "server.json", "package": N | "remote": N, "inputs": {…}}`.
 * Each becomes the entry the host would run — the launch `mcp verify` composes (Claude Desktop's for a
 * bundle, VS Code's for a server.json package) — so every command starts the same process. A `.mcpb`
 * is unpacked once into toolrun's cache, by its sha256 (a changed file is a new folder). What cannot be
 * composed is a ConfigError at the entry, naming the first error and `mcp verify` to see them all.
 * `${VAR}`s in userConfig/inputs are left in the launch and expanded when the server starts, as any
 * entry's are.
 */
export async function resolvePackagedServers(config: ToolrunConfig, env: NodeJS.ProcessEnv): Promise<void> {
  for (const [name, entry] of Object.entries(config.servers)) {
    if (entry.transport !== 'stdio' || !entry.packaged) continue;
    const launch = answerNpxInstall(await composedLaunch(name, entry.packaged, config, env));
    const composed =
      launch.transport === 'stdio'
        ? { command: launch.command, args: launch.args, env: { ...launch.env, ...entry.env }, ...(launch.cwd ? { cwd: launch.cwd } : {}) }
        : { type: launch.transport === 'sse' ? 'sse' : 'http', url: launch.url, headers: launch.headers };
    const built = buildConfig({ mcpServers: { [name]: composed } }, config.path, config.baseDir, () => false).servers[name]!;
    const kept: Partial<RawServerConfig> = { hint: entry.hint, connectTimeoutMs: entry.connectTimeoutMs, protocol: entry.protocol, ...(entry.origin ? { origin: entry.origin } : {}) };
    config.servers[name] = { ...built, ...kept, ...(built.transport === 'stdio' ? { installTimeoutMs: entry.installTimeoutMs } : {}) } as RawServerConfig;
  }
}

async function composedLaunch(name: string, source: PackagedSource, config: ToolrunConfig, env: NodeJS.ProcessEnv): Promise<ComposedLaunch> {
  const field = source.kind === 'bundle' ? 'bundle' : 'serverJson';
  const fail = (message: string) => new ConfigError(message, { place: { file: config.path, jsonPath: `mcpServers.${name}.${field}` } });
  if (!existsSync(source.path))
    throw fail(`${source.path}: no such file; give the path of ${source.kind === 'bundle' ? 'a .mcpb or an unpacked bundle' : 'a server.json'}, relative to the config file`);
  if (source.kind === 'bundle') return bundleLaunch(source.path, source.userConfig, env, fail);
  const { verifyServerJson } = await import('./server-json/verify-server-json.js');
  const report = verifyServerJson(readFileSync(source.path, 'utf8'), source.path, { inputs: source.inputs });
  const id = source.remote !== undefined ? `remotes[${source.remote}]` : `packages[${source.package ?? 0}]`;
  const entry = report.entries.find((candidate) => candidate.id === id);
  const errors = [...report.findings, ...(entry?.findings ?? [])].filter((finding) => finding.level === 'error');
  if (errors.length > 0) throw fail(firstError(errors, source.path));
  if (!entry) throw fail(`${source.path} has no ${id}: ${report.entries.map((candidate) => candidate.id).join(', ') || 'no packages or remotes'}`);
  if (entry.kind === 'mcpb') {
    // A release URL verify does not download: the bundle of that name beside the server.json.
    const local = join(dirname(source.path), bundleFileName(readPackageIdentifier(source.path, source.package ?? 0)));
    if (!existsSync(local)) throw fail(`${id} is an mcpb package: put the bundle it names (${basename(local)}) beside ${source.path}, or name it with "bundle"`);
    return bundleLaunch(local, {}, env, fail);
  }
  return entry.launch!;
}

async function bundleLaunch(path: string, userConfig: Record<string, string | string[]>, env: NodeJS.ProcessEnv, fail: (message: string) => Error): Promise<ComposedLaunch> {
  const folder = statSync(path).isDirectory() ? path : await unpackedInCache(path, env, fail);
  const { verifyBundle } = await import('./mcpb/verify-bundle.js');
  const { report, dispose } = await verifyBundle(folder, { userConfig });
  await dispose();
  const entry = report.entries[0];
  const errors = [...report.findings, ...(entry?.findings ?? [])].filter((finding) => finding.level === 'error');
  if (errors.length > 0 || !entry?.launch) throw fail(firstError(errors, path));
  return entry.launch;
}

/** `<cache>/bundles/<sha256>/`: unpacked once (into a temporary folder, then moved), reused while the file is the same. */
async function unpackedInCache(path: string, env: NodeJS.ProcessEnv, fail: (message: string) => Error): Promise<string> {
  const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
  const folder = join(cacheDirectory(env), 'bundles', digest);
  if (existsSync(join(folder, COMPLETE_MARK))) return folder;
  const { unpackBundle } = await import('./mcpb/unpack-bundle.js');
  const unpacked = await unpackBundle(path);
  try {
    if (!unpacked.folder) throw fail(firstError(unpacked.findings, path));
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
    try {
      renameSync(unpacked.folder, folder);
    } catch {
      // Another file system (the temporary folder is elsewhere): copied instead.
      cpSync(unpacked.folder, folder, { recursive: true, verbatimSymlinks: true });
    }
    writeFileSync(join(folder, COMPLETE_MARK), '');
    return folder;
  } finally {
    await unpacked.dispose();
  }
}

function firstError(errors: VerifyFinding[], file: string): string {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first ? inConfigWords(first) : 'it cannot be launched'}${more}; see them all with: toolrun mcp verify ${file}`;
}

/** A finding as the config's reader fixes it: a missing input goes in the entry's "inputs" (from the environment), not in --input. */
function inConfigWords(finding: VerifyFinding): string {
  const where = finding.path && !finding.message.startsWith(finding.path) ? `${finding.path}: ` : '';
  const missing = finding.rule === 'server-json/required-input-missing' ? /\(([^)]+)\) is required/.exec(finding.message)?.[1] : undefined;
  if (missing) return `${where}${finding.path} (${missing}) is required and has no default: give it in the entry's "inputs", e.g. "inputs": {"${missing}": "\${${missing}}"}`;
  return `${where}${finding.message}`;
}

function readPackageIdentifier(path: string, index: number): string {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { packages?: { identifier?: string }[] };
  return parsed.packages?.[index]?.identifier ?? '';
}

/** The file an mcpb package's release URL names (`…/download/v1/notes.mcpb` → `notes.mcpb`). */
export function bundleFileName(identifier: string): string {
  try {
    return basename(new URL(identifier).pathname);
  } catch {
    return basename(identifier);
  }
}
