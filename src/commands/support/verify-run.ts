import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { CliContext } from '../../cli-support/cli-context.js';
import { writeOutputFile } from '../../cli-support/write-output-file.js';
import { ExitCode, UsageError } from '../../errors.js';
import { reportFailed, type VerifyEntry, type VerifyReport } from '../../verify/verify-types.js';
import { bundleFileName } from '../../verify/packaged-servers.js';

/** `mcp verify`'s options, as commander gives them. */
export interface VerifyOptions {
  launch?: boolean;
  input: Record<string, string>;
  userConfig: Record<string, string>;
  platform?: string;
  junit?: string;
  sarif?: string;
}

type Target = { kind: 'server.json' | 'mcpb'; path: string; shown: string };

const PLATFORMS = new Set(['darwin', 'win32', 'linux']);

/** `mcp verify FILE…`: each file read and checked, each entry composed (and with --launch started), one report printed. */
export async function runVerify(cli: CliContext, words: string[], options: VerifyOptions): Promise<number> {
  if (options.platform !== undefined && !PLATFORMS.has(options.platform)) throw new UsageError(`--platform ${options.platform}: use darwin, win32 or linux`);
  const targets = words.flatMap((word) => targetsOf(cli.cwd, word));
  const platform = options.platform as NodeJS.Platform | undefined;
  const reports: VerifyReport[] = [];
  const bundles = await import('../../verify/mcpb/verify-bundle.js');
  const verifyBundle = async (path: string, shown: string, expectedSha256?: string) => {
    const { report, dispose } = await bundles.verifyBundle(path, { userConfig: options.userConfig, platform, expectedSha256 });
    cli.onExit(dispose);
    return { ...report, file: shown };
  };
  for (const target of targets) {
    if (target.kind === 'mcpb') {
      reports.push(await verifyBundle(target.path, target.shown));
      continue;
    }
    const { verifyServerJson } = await import('../../verify/server-json/verify-server-json.js');
    const text = readFileSync(target.path, 'utf8');
    const report = verifyServerJson(text, target.shown, { inputs: options.input });
    if (!options.launch) softenMissingInputs(report);
    await useLocalBundles(report, text, target.path, (path, sha) => verifyBundle(path, relative(cli.cwd, path) || path, sha));
    reports.push(report);
  }
  if (options.launch) {
    const { launchEntries } = await import('./verify-launch.js');
    for (const report of reports) await launchEntries(cli, report.entries);
  }
  await writeReports(cli, reports, options);
  if (cli.globals.json) await cli.terminal.resultJson({ ok: !reports.some(reportFailed), reports });
  else {
    const { formatVerifyReports } = await import('../../output/format-verify.js');
    await cli.terminal.result(formatVerifyReports(reports, cli.terminal.outStyle));
  }
  if (cli.signal.aborted) return ExitCode.INTERRUPTED;
  return reports.some(reportFailed) ? ExitCode.FAILURE : ExitCode.OK;
}

/**
 * Without --launch, a required input no one gave (`--input`) is a warning: the file is valid, and the
 * user types the value into the host (the registry's own valid examples are such files). With
 * --launch it stays an error: the server would be started without it.
 */
function softenMissingInputs(report: VerifyReport): void {
  for (const entry of report.entries)
    for (const finding of entry.findings)
      if (finding.rule === 'server-json/required-input-missing' && finding.level === 'error') {
        finding.level = 'warning';
        finding.message += '; --launch needs it';
      }
}

/** What a word names: a file by its name, a folder by what it holds. */
function targetsOf(cwd: string, word: string): Target[] {
  const path = resolve(cwd, word);
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new UsageError(`${word}: no such file or folder`);
  }
  if (stats.isFile()) {
    if (/\.mcpb$/i.test(path)) return [{ kind: 'mcpb', path, shown: word }];
    // An unpacked bundle is its folder: the manifest's files are named relative to it.
    if (basename(path) === 'manifest.json') return [{ kind: 'mcpb', path: join(path, '..'), shown: word }];
    return [{ kind: 'server.json', path, shown: word }];
  }
  const names = readdirSync(path).sort();
  const found: Target[] = [];
  if (names.includes('server.json')) found.push({ kind: 'server.json', path: join(path, 'server.json'), shown: join(word, 'server.json') });
  if (names.includes('manifest.json')) found.push({ kind: 'mcpb', path, shown: word });
  for (const name of names) if (/\.mcpb$/i.test(name)) found.push({ kind: 'mcpb', path: join(path, name), shown: join(word, name) });
  if (found.length === 0) throw new UsageError(`${word}: no server.json, manifest.json or .mcpb in this folder`);
  return found;
}

/**
 * A server.json's `mcpb` package names a release URL, which verify does not download (it works
 * offline): when the bundle it names is beside the server.json (the file the release will carry),
 * that bundle is checked against the package's `fileSha256` and its launch is the entry's.
 */
async function useLocalBundles(report: VerifyReport, text: string, path: string, verifyBundle: (path: string, sha?: string) => Promise<VerifyReport>): Promise<void> {
  let packages: unknown[] = [];
  try {
    const parsed = JSON.parse(text) as { packages?: unknown };
    if (Array.isArray(parsed.packages)) packages = parsed.packages;
  } catch {
    return;
  }
  for (const entry of report.entries) {
    if (entry.kind !== 'mcpb') continue;
    const index = Number(/^packages\[(\d+)\]$/.exec(entry.id)?.[1] ?? Number.NaN);
    const pkg = packages[index] as { identifier?: unknown; fileSha256?: unknown; file_sha256?: unknown } | undefined;
    if (!pkg || typeof pkg.identifier !== 'string') continue;
    const local = join(path, '..', bundleFileName(pkg.identifier));
    if (!existsSync(local)) continue;
    const sha = typeof pkg.fileSha256 === 'string' ? pkg.fileSha256 : typeof pkg.file_sha256 === 'string' ? pkg.file_sha256 : undefined;
    const bundle = await verifyBundle(local, sha);
    mergeBundle(entry, bundle, local);
  }
}

function mergeBundle(entry: VerifyEntry, bundle: VerifyReport, local: string): void {
  const checked = bundle.entries[0];
  entry.findings.push({ level: 'note', rule: 'mcpb/local-bundle', path: entry.id, message: `checked against the bundle beside the server.json: ${local}` }, ...bundle.findings);
  if (!checked) return;
  entry.findings.push(...checked.findings);
  entry.launch = checked.launch;
  entry.composedAs = checked.composedAs;
}

async function writeReports(cli: CliContext, reports: VerifyReport[], options: VerifyOptions): Promise<void> {
  if (!options.junit && !options.sarif && cli.env.GITHUB_ACTIONS !== 'true') return;
  const { verifyJunit, verifySarif, verifyAnnotations } = await import('../../output/format-verify-reports.js');
  const uriOf = (file: string) => (relative(cli.cwd, resolve(cli.cwd, file)) || file).split('\\').join('/');
  if (options.junit) await writeOutputFile(resolve(cli.cwd, options.junit), Buffer.from(verifyJunit(reports)));
  if (options.sarif) {
    const { readVersion } = await import('../../version.js');
    await writeOutputFile(resolve(cli.cwd, options.sarif), Buffer.from(verifySarif(reports, { version: readVersion(), uriOf })));
  }
  if (cli.env.GITHUB_ACTIONS === 'true') for (const line of verifyAnnotations(reports, uriOf)) cli.terminal.workflowCommand(line);
}
