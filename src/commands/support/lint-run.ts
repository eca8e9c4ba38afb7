import { readFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import type { CliContext } from '../../cli-support/cli-context.js';
import { writeOutputFile } from '../../cli-support/write-output-file.js';
import type { ToolrunConfig } from '../../config/config-types.js';
import { ExitCode, UsageError } from '../../errors.js';
import { findTarget, LINT_TARGETS, targetNames } from '../../lint/lint-targets.js';
import { deeperThan, MAX_JSON_DEPTH } from '../../lint/schema-walk.js';
import { lintServers } from '../../lint/lint-servers.js';
import type { Finding, LintReport, LintTarget, ServerTools } from '../../lint/lint-types.js';
import { tokenCounter } from '../../lint/token-counter.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { cacheDirectory, trustedCacheFolder } from '../../cache/cache-directory.js';
import { readVersion } from '../../version.js';
import { resolveWritablePath } from '../../cli-support/output-file-path.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';
import { assertServerExists } from '../../cli-support/assert-server-exists.js';
import { openTools } from './open-tools.js';
import { APPS_CLIENT_EXTENSIONS, type AppsEvidence } from '../../extensions/apps/apps-wire.js';
import { serverOnCommandLine } from '../../cli-support/server-on-command-line.js';

/** The flags `mcp lint` and `hosts lint` share (and `--snapshot`, mcp lint's own). */
export interface LintOptions {
  snapshot?: string[];
  target?: string[];
  maxTokens?: number;
  maxTools?: number;
  sarif?: string;
  junit?: string;
  fix?: boolean;
  tokens?: boolean;
}

/**
 * What `mcp lint` and `hosts lint` share once the flags are read: the servers' tools (from snapshot
 * files, or from live servers connected together), the engine (src/lint/), and the outputs.
 */
export interface LintRun {
  targets: LintTarget[];
  options: LintOptions;
  paths: { sarif?: string; junit?: string };
}

/** Where each server's tools came from, for SARIF locations: a file and the text to find lines in. */
interface Origin {
  file: string;
  text: string;
}

export type LintSource = { snapshots: string[] } | { servers: string[]; dashed: boolean; config?: ToolrunConfig };

/** Reads the flags before any server starts: an unknown target or a --fix without one target is exit 2 at once. */
export function prepareLint(cli: CliContext, options: LintOptions, defaultTargets?: string[]): LintRun {
  const spelled = (options.target ?? defaultTargets ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  const targets = spelled.length === 0 ? LINT_TARGETS : spelled.map((name) => findTarget(name) ?? unknownTarget(name));
  if (options.fix && targets.length !== 1) throw new UsageError('--fix prints the schemas for one target: give one --target (e.g. --fix --target gemini)');
  return { targets: [...new Set(targets)], options, paths: lintOutputPaths(cli, options) };
}

function unknownTarget(name: string): never {
  throw new UsageError(`unknown lint target '${name}'; known: ${targetNames().join(', ')}`);
}

export async function runLint(cli: CliContext, run: LintRun, source: LintSource): Promise<number> {
  const probesApps = run.targets.some((target) => target.probesApps);
  if (probesApps && 'snapshots' in source) throw new UsageError('--target apps judges live servers (it reads their UI resources): name servers instead of --snapshot');
  const { servers, origins, unreachable } = 'snapshots' in source ? await readSnapshots(cli, source.snapshots) : await readServers(cli, source, probesApps);
  if (servers.length === 0 && run.options.fix) return ExitCode.UNREACHABLE;
  if (run.options.fix) return printFixes(cli, servers, run.targets[0]!);
  const counting = run.options.tokens !== false || run.options.maxTokens !== undefined;
  if (run.options.tokens === false && run.options.maxTokens !== undefined) throw new UsageError('drop --no-tokens: a token budget needs the token count (--max-tokens)');
  const folder = cli.globals.cache ? trustedCacheFolder(cacheDirectory(cli.env), { create: true, note: (note) => cli.terminal.verbose(note) }) : undefined;
  const report = await lintServers(servers, {
    targets: run.targets,
    maxTokens: run.options.maxTokens,
    maxTools: run.options.maxTools,
    ...(counting ? { countTokens: tokenCounter(folder) } : {}),
  });
  await writeOutputs(cli, run, report, origins, servers);
  if (report.errors > 0) return ExitCode.FAILURE;
  return unreachable ? ExitCode.UNREACHABLE : ExitCode.OK;
}

async function readSnapshots(cli: CliContext, files: string[]): Promise<{ servers: ServerTools[]; origins: Map<string, Origin>; unreachable: boolean }> {
  const { readApiFile } = await import('../../snapshot/read-api-file.js');
  const servers: ServerTools[] = [];
  const origins = new Map<string, Origin>();
  for (const file of files) {
    const path = resolve(cli.cwd, file);
    const source = await readApiFile(path, file, (note) => cli.terminal.warn(`--snapshot ${file}: ${note}`)).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new UsageError(`--snapshot ${file}: no such file (make one with: toolrun mcp snapshot SERVER > ${file})`);
      if (code === 'EISDIR') throw new UsageError(`--snapshot ${file} is a folder, not a snapshot`);
      if (code === 'EACCES') throw new UsageError(`--snapshot ${file}: not readable (permission denied)`);
      if (error instanceof Error && (error as { kind?: string }).kind === 'usage') throw new UsageError(`--snapshot ${file}: ${error.message}`);
      throw error;
    });
    if (!source.snapshot.tools) throw new UsageError(`--snapshot ${file}: the recording holds no tools/list answer to lint`);
    let name = source.snapshot.server.name || basename(file).replace(/\.[^.]+$/, '');
    if (servers.some((server) => server.server === name)) name = `${name} (${file})`;
    servers.push({ server: name, tools: source.snapshot.tools });
    origins.set(name, { file: relative(cli.cwd, path) || file, text: readText(path) });
  }
  return { servers, origins, unreachable: false };
}

async function readServers(
  cli: CliContext,
  source: { servers: string[]; dashed: boolean; config?: ToolrunConfig },
  probesApps = false,
): Promise<{ servers: ServerTools[]; origins: Map<string, Origin>; unreachable: boolean }> {
  const config = source.config ?? (await loadCliConfig(cli));
  let names: string[];
  if (source.dashed || (source.servers.length === 1 && /^https?:\/\//i.test(source.servers[0]!))) names = [serverOnCommandLine(config, source.servers, source.dashed, cli.cwd)!];
  else if (source.servers.length > 0) {
    for (const name of source.servers) assertServerExists(config, name);
    names = [...new Set(source.servers)];
  } else names = Object.keys(config.servers);
  if (names.length === 0) throw new UsageError(`no MCP servers to lint${config.path ? ` in ${config.path}` : ''}: name one, give --snapshot FILE, or -- COMMAND`);
  // The apps target claims the MCP Apps extension at the handshake (SPEC §23), so no warm session's servers (connected without it).
  const { registry, connect } = await openTools(cli, { config, useSession: true, onToolReplaced: () => {}, ...(probesApps && { clientExtensions: APPS_CLIENT_EXTENSIONS }) });
  const failures = await connect(names, { registerTools: false });
  const { takeSnapshot, ListFailedError } = await import('../../snapshot/take-snapshot.js');
  const { mcpRequestError } = await import('../../cli-support/mcp-request-error.js');
  const servers: ServerTools[] = [];
  const notListed: string[] = [];
  for (const name of names) {
    const status = registry.servers.get(name);
    if (status?.status !== 'connected') continue;
    const connection = status.connection as ServerConnection;
    try {
      const snapshot = await takeSnapshot(connection, { signal: cli.signal, timeout: cli.globals.timeout, only: ['tools'] });
      const apps = probesApps ? await collectAppsOf(cli, connection) : undefined;
      if (apps === null) {
        notListed.push(name);
        continue;
      }
      servers.push({ server: name, tools: snapshot.tools, ...(apps && { apps }) });
    } catch (error) {
      if (!(error instanceof ListFailedError) || cli.signal.aborted) throw error;
      // One server's failing list must not leave the others unlinted: said, and the run ends 4 as for a server not connected.
      cli.terminal.warn(`✖ ${mcpRequestError(connection, error.method, error.cause).message}`);
      notListed.push(name);
    }
  }
  const notLinted = [...failures.map((failure) => `${failure.server} could not be connected`), ...notListed.map((name) => `${name}'s tools could not be listed`)];
  if (notLinted.length > 0) cli.terminal.warn(`not linted: ${notLinted.join('; ')} (exit 4 unless a finding fails the run)`);
  const origin: Origin | undefined = config.path ? { file: relative(cli.cwd, config.path) || config.path, text: config.sourceText ?? readText(config.path) } : undefined;
  return { servers, origins: new Map(origin ? servers.map((server) => [server.server, origin]) : []), unreachable: notLinted.length > 0 };
}

/** The server's MCP Apps evidence for the apps target; null (said on stderr) when its tools could not be listed again. */
async function collectAppsOf(cli: CliContext, connection: ServerConnection): Promise<AppsEvidence | null> {
  const { collectApps } = await import('../../extensions/apps/collect-apps.js');
  try {
    return await collectApps(connection.name, connection.client, { signal: cli.signal, timeout: cli.globals.timeout, onNote: (note) => cli.terminal.warn(note) });
  } catch (error) {
    if (cli.signal.aborted) throw error;
    const { mcpRequestError } = await import('../../cli-support/mcp-request-error.js');
    cli.terminal.warn(`✖ ${mcpRequestError(connection, 'tools/list', error).message}`);
    return null;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

async function printFixes(cli: CliContext, servers: ServerTools[], target: LintTarget): Promise<number> {
  const { fixSchema, newFixBudget, MAX_INLINED_CHARS } = await import('../../lint/fix-schema.js');
  const budget = newFixBudget();
  const tools: Array<{ server: string; name: string; inputSchema: Record<string, unknown> }> = [];
  let total = 0;
  for (const { server, tools: listed } of servers) {
    for (const tool of listed) {
      total += 1;
      if (deeperThan(tool, MAX_JSON_DEPTH)) {
        cli.terminal.warn(`${server}/${String(tool.name)}: not fixed, nested more than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels deep (mcp lint says so)`);
        continue;
      }
      const fixed = fixSchema(tool.inputSchema, target.name, budget);
      if (JSON.stringify(fixed) !== JSON.stringify(tool.inputSchema)) tools.push({ server, name: String(tool.name), inputSchema: fixed });
    }
  }
  if (budget.exhausted) {
    cli.terminal.warn(`--fix inlined $refs up to ${MAX_INLINED_CHARS.toLocaleString('en-US')} characters of copies; the references past that are printed as objects whose description names them`);
  }
  cli.terminal.info(
    `${target.name}@${target.version} needs a different inputSchema in ${tools.length} of ${total} tool${total === 1 ? '' : 's'}${tools.length === 0 ? '' : ': printed as it needs them'}`,
  );
  await cli.terminal.result(`${JSON.stringify(cli.globals.json ? { target: `${target.name}@${target.version}`, tools } : tools, null, cli.globals.json ? undefined : 2)}`, {
    verbatim: true,
    json: true,
  });
  return ExitCode.OK;
}

async function writeOutputs(cli: CliContext, run: LintRun, report: LintReport, origins: Map<string, Origin>, servers: ServerTools[]): Promise<void> {
  const locate = (finding: Finding) => {
    const origin = origins.get(finding.server) ?? (finding.server === '*' ? origins.values().next().value : undefined);
    if (!origin) return undefined;
    return { uri: origin.file.split('\\').join('/'), line: lineOf(origin.text, finding) };
  };
  if (run.paths.sarif) {
    const { formatLintSarif } = await import('../../output/format-lint-sarif.js');
    await writeOutputFile(run.paths.sarif, Buffer.from(formatLintSarif(report, { version: readVersion(), locate })));
  }
  if (run.paths.junit) {
    const { formatLintJunit } = await import('../../output/format-lint-junit.js');
    await writeOutputFile(run.paths.junit, Buffer.from(formatLintJunit(report, servers)));
  }
  if (cli.env.GITHUB_ACTIONS === 'true') {
    const { lintAnnotations } = await import('../../output/format-lint-annotations.js');
    for (const line of lintAnnotations(report, locate)) cli.terminal.workflowCommand(line);
  }
  if (cli.globals.json) return cli.terminal.resultJson(report);
  const { formatLintReport } = await import('../../output/format-lint-report.js');
  await cli.terminal.result(formatLintReport(report, cli.terminal.outStyle));
}

/** The line of the tool's name in its file (the server's entry for set-wide findings), else 1. */
function lineOf(text: string, finding: Finding): number {
  const needles =
    finding.tool === undefined
      ? [JSON.stringify(finding.server), finding.server]
      : [`"name": ${JSON.stringify(finding.tool)}`, `"name":${JSON.stringify(finding.tool)}`, JSON.stringify(finding.server)];
  for (const needle of needles) {
    const index = text.indexOf(needle);
    if (index >= 0) return text.slice(0, index).split('\n').length;
  }
  return 1;
}

export function lintOutputPaths(cli: CliContext, options: LintOptions): { sarif?: string; junit?: string } {
  return {
    ...(options.sarif === undefined ? {} : { sarif: resolveWritablePath(cli.cwd, '--sarif', options.sarif) }),
    ...(options.junit === undefined ? {} : { junit: resolveWritablePath(cli.cwd, '--junit', options.junit) }),
  };
}
