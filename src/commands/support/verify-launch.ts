import type { CliContext } from '../../cli-support/cli-context.js';
import { buildConfig } from '../../config/build-config.js';
import { resolveServer } from '../../config/resolve-server.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';
import type { ComposedLaunch, LaunchVerdict, VerifyEntry } from '../../verify/verify-types.js';
import { answerNpxInstall } from '../../verify/answer-npx-install.js';
import { openTools } from './open-tools.js';

/** Per request, and for the whole conform run of one entry: a package that installs first has its own budget (installTimeoutMs). */
const REQUEST_TIMEOUT_MS = 10_000;
const CONFORM_DEADLINE_MS = 120_000;
const SHUTDOWN_GRACE_MS = 2000;
const STDERR_LINES_SHOWN = 8;
/** A line that says what failed (`Error [ERR_MODULE_NOT_FOUND]: Cannot find package …`, `ModuleNotFoundError: …`), not a stack frame. */
const ERROR_LINE = /\b(error|cannot|not found|exception|traceback)\b/i;
const STACK_FRAME = /^\s+(at |File ")/;

/**
 * `mcp verify --launch`: each entry's composed launch started as a host would start it (the same
 * launch path as every command: npx/uvx install waits, the cause table, process-tree shutdown), its
 * handshake, then `mcp lint` over the tools it lists (every target) and `mcp conform` (profile
 * toolrun@2) on a fresh start. One entry at a time: two servers installing at once fight over the
 * same caches. The verdict is written into `entry.launched`.
 */
export async function launchEntries(cli: CliContext, entries: VerifyEntry[]): Promise<void> {
  for (const entry of entries) {
    if (!entry.launch || cli.signal.aborted) continue;
    entry.launched = await launchOne(cli, entry.id, entry.launch);
  }
}

async function launchOne(cli: CliContext, name: string, launch: ComposedLaunch): Promise<LaunchVerdict> {
  const startedAt = performance.now();
  const config = buildConfig({ mcpServers: { [name]: configEntry(launch) } }, null, cli.cwd, () => false);
  const opened = await openTools(cli, { config, onToolReplaced: () => {} });
  const failures = await opened.connect([name], { registerTools: false });
  const status = opened.registry.servers.get(name);
  if (failures.length > 0 || status?.status !== 'connected') {
    const failure = failures[0];
    // The lines that say what went wrong (a server's own import error) first, then the last ones.
    const all = [...(failure?.stderrErrorLines ?? []), ...(failure?.stderrLines ?? [])];
    const errorLines = [...new Set(all.filter((line) => ERROR_LINE.test(line) && !STACK_FRAME.test(line)))].slice(0, STDERR_LINES_SHOWN / 2);
    const lastLines = (failure?.stderrLines ?? []).filter((line) => !errorLines.includes(line)).slice(-(STDERR_LINES_SHOWN - errorLines.length));
    return {
      handshake: false,
      durationMs: Math.round(performance.now() - startedAt),
      error: failure?.reason ?? 'it did not answer initialize',
      stderrTail: [...errorLines, ...lastLines].map((line) => maskThenCut(line, 300)),
    };
  }
  const connection: ServerConnection = status.connection;
  const verdict: LaunchVerdict = {
    handshake: true,
    serverInfo: { name: connection.serverInfo?.name, version: connection.serverInfo?.version },
    protocolVersion: connection.protocolVersion,
    tools: connection.tools.length,
    durationMs: 0,
  };
  verdict.lint = await lintCounts(name, connection);
  await connection.close().catch(() => {});
  opened.registry.servers.delete(name);
  verdict.conform = await conformCounts(cli, config, name);
  verdict.durationMs = Math.round(performance.now() - startedAt);
  return verdict;
}

function configEntry(launch: ComposedLaunch): Record<string, unknown> {
  if (launch.transport === 'stdio') {
    const { command, args, env, cwd } = answerNpxInstall(launch) as typeof launch;
    return { command, args, env, ...(cwd ? { cwd } : {}) };
  }
  return { type: launch.transport === 'sse' ? 'sse' : 'http', url: launch.url, headers: launch.headers };
}

async function lintCounts(name: string, connection: ServerConnection): Promise<LaunchVerdict['lint']> {
  const [{ lintServers }, { LINT_TARGETS }] = await Promise.all([import('../../lint/lint-servers.js'), import('../../lint/lint-targets.js')]);
  const report = await lintServers([{ server: name, tools: connection.tools as never }], { targets: LINT_TARGETS });
  return {
    errors: report.findings.filter((finding) => finding.severity === 'error').length,
    warnings: report.findings.filter((finding) => finding.severity === 'warning').length,
  };
}

async function conformCounts(cli: CliContext, config: ReturnType<typeof buildConfig>, name: string): Promise<LaunchVerdict['conform']> {
  const [{ runConform }, { findProfile, DEFAULT_PROFILE }] = await Promise.all([import('../../conform/run-conform.js'), import('../../conform/profiles.js')]);
  const report = await runConform({
    spec: resolveServer(config, config.servers[name]!, cli.env),
    profile: findProfile(DEFAULT_PROFILE)!,
    calls: [],
    callAll: false,
    timeoutMs: cli.globals.timeout ?? REQUEST_TIMEOUT_MS,
    deadlineMs: CONFORM_DEADLINE_MS,
    graceMs: SHUTDOWN_GRACE_MS,
    signal: cli.signal,
  });
  return { passed: report.summary.pass, failed: report.summary.fail, warnings: report.summary.warn };
}
