import { existsSync } from 'node:fs';
import type { ToolrunConfig } from '../config/config-types.js';
import { listEnvReferences } from '../config/expand-env.js';
import { resolveServer, type ServerSpec } from '../config/resolve-server.js';
import { ConfigError, ExitCode } from '../errors.js';
import { checkMcpTools } from '../mcp/check-mcp-tools.js';
import { inferChecks, type ConnectFailure } from '../mcp/connect-failure.js';
import { connectWithRetry, ServerConnectError, type RetryLogger } from '../mcp/connect-with-retry.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { KIND_INFO, FIX_ADVICE } from '../scan/finding-kinds.js';
import { StdoutScanner } from '../scan/stdout-scanner.js';
import type { DoctorReport, DoctorStep, DoctorStepId } from './doctor-types.js';
import { findCommand } from './find-command.js';
import { redactMap, redactUrl } from './redact.js';

export interface DoctorOptions {
  config: ToolrunConfig;
  server: string;
  env: NodeJS.ProcessEnv;
  logger: RetryLogger;
  /** Builtin and config tool names, to report MCP tools that duplicate them. */
  localToolNames: string[];
  /** One real call for the latency step; `args` gets the tool's input schema (to type key=value). */
  call?: { tool: string; args: (inputSchema: Record<string, unknown> | undefined) => Record<string, unknown> };
  timeoutMs: number;
  signal?: AbortSignal;
  /** Progress, for a spinner: called when a step starts. */
  onStep?: (id: DoctorStepId) => void;
}

const STEP_ORDER: DoctorStepId[] = ['config', 'spawn', 'initialize', 'tools', 'stdout', 'stderr', 'latency', 'shutdown'];
const PINGS = 5;
const ERROR_LINE = /\b(error|exception|traceback|fatal|panic|ECONNREFUSED|EADDRINUSE|ENOENT|cannot find|failed|denied)\b/i;
const NPX_FETCH = /Need to install the following packages|npm (warn|WARN) exec|npx: installed/;

/** Diagnoses one server step by step (SPEC §5). Never throws for the server's faults: they are findings. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const startedAt = performance.now();
  const steps = new Map<DoctorStepId, DoctorStep>();
  const set = (id: DoctorStepId, status: DoctorStep['status'], finding: string, extra: Partial<DoctorStep> = {}) =>
    steps.set(id, { id, status, finding, details: extra.details ?? [], fix: extra.fix, data: extra.data ?? {} });
  const raw = options.config.servers[options.server]!;
  const finish = (exitCode?: number) => buildReport(options.server, raw.transport === 'stdio' ? 'stdio' : raw.transport, steps, startedAt, exitCode);

  // 1. config
  options.onStep?.('config');
  let spec: ServerSpec;
  try {
    spec = resolveServer(options.config, raw, options.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    set('config', 'fail', error.message.replace(/^[^:]*: /, ''), { fix: 'set the variable, or give a default in the config: ${NAME:-value}' });
    for (const id of STEP_ORDER.slice(1)) set(id, 'skip', 'not run: the config entry does not resolve');
    return finish(ExitCode.CONFIG);
  }
  checkConfigStep(spec, raw, options, set);

  // 2 + 3. spawn and initialize (with the config's retry)
  options.onStep?.('spawn');
  let scanner = new StdoutScanner();
  let connection: ServerConnection | undefined;
  let failure: ConnectFailure | undefined;
  let attempts = 0;
  try {
    connection = await connectWithRetry(spec, options.config.retry, {
      logger: options.logger,
      signal: options.signal,
      onAttempt: (attempt) => {
        attempts = attempt;
        scanner = new StdoutScanner();
      },
      hooks: { onStdoutLine: (_server, line) => scanner.scanLine(line) },
    });
  } catch (error) {
    if (!(error instanceof ServerConnectError)) throw error;
    failure = error.failure;
  }
  const attemptsText = `${attempts} of ${options.config.retry.attempts}`;

  if (failure) {
    reportConnectFailure(spec, failure, attemptsText, set);
    set('tools', 'skip', 'not run: no connection');
    set('latency', 'skip', 'not run: no connection');
    set('shutdown', 'skip', failure.exit ? 'the process had already exited' : 'not run: no connection');
    reportStdout(spec, scanner, set);
    reportStderr(spec, failure.stderrLines, set);
    return finish(ExitCode.UNREACHABLE);
  }

  const live = connection!;
  const stderrText = () => live.stdio?.stderrTail.text() ?? '';
  set(
    'spawn',
    'ok',
    spec.transport === 'stdio' ? `process started${live.stdio?.pid ? ` (pid ${live.stdio.pid})` : ''} in ${Math.round(live.timings.spawnMs ?? 0)} ms` : `connected over ${live.transportKind === 'sse' ? 'SSE' : 'Streamable HTTP'}`,
    { data: { spawn_ms: live.timings.spawnMs, transport: live.transportKind } },
  );
  options.onStep?.('initialize');
  const capabilities = Object.keys(live.capabilities ?? {});
  const server = live.serverInfo ? `${live.serverInfo.name} ${live.serverInfo.version}` : 'unnamed server';
  const initFinding = `answered in ${Math.round(live.timings.initializeMs)} ms · protocol ${live.protocolVersion ?? '?'} · ${server} · capabilities: ${capabilities.join(', ') || 'none'}`;
  const initData = { initialize_ms: live.timings.initializeMs, protocol_version: live.protocolVersion, server_info: live.serverInfo, capabilities: live.capabilities, attempt: live.attempt };
  if (live.attempt > 1) set('initialize', 'warn', `connected on attempt ${live.attempt} of ${options.config.retry.attempts}: flaky start · ${initFinding}`, { fix: 'make the server start reliably (see stderr), or keep retry.attempts high enough', data: initData });
  else if (NPX_FETCH.test(stderrText())) set('initialize', 'warn', `${initFinding} · npx fetched the package first (cold cache)`, { fix: 'the first start is slow while npx downloads: install the package, or raise connectTimeoutMs', data: initData });
  else set('initialize', 'ok', initFinding, { data: initData });

  // 4. tools
  options.onStep?.('tools');
  await reportTools(live, options, set);

  // 7. latency (before shutdown, on the live connection)
  options.onStep?.('latency');
  await reportLatency(live, options, set);

  // 8. shutdown
  options.onStep?.('shutdown');
  const shutdownStarted = performance.now();
  const outcome = await live.close();
  const shutdownMs = Math.round(performance.now() - shutdownStarted);
  if (spec.transport !== 'stdio') set('shutdown', 'skip', 'remote server: the session was closed; nothing to stop');
  else if (outcome === 'stdin-closed') set('shutdown', 'ok', `exited when its stdin closed (${shutdownMs} ms)`, { data: { outcome, shutdown_ms: shutdownMs } });
  else if (outcome === 'SIGTERM') set('shutdown', 'warn', `did not exit when its stdin closed; ended by SIGTERM (${shutdownMs} ms)`, { fix: 'exit when stdin closes (clients close stdin first, then wait)', data: { outcome, shutdown_ms: shutdownMs } });
  else if (outcome === 'SIGKILL') set('shutdown', 'fail', `ignored stdin close and SIGTERM; needed SIGKILL (${shutdownMs} ms)`, { fix: 'exit on stdin close, and do not ignore SIGTERM: clients kill servers that linger', data: { outcome, shutdown_ms: shutdownMs } });
  else set('shutdown', 'fail', `the process exited by itself during the session${live.stdio?.exitInfo ? ` (code ${live.stdio.exitInfo.code}, signal ${live.stdio.exitInfo.signal})` : ''}`, { fix: 'see stderr: the server crashed while it was being used', data: { outcome } });

  // 5 + 6. stdout and stderr, now that the process is gone and every line was seen
  options.onStep?.('stdout');
  reportStdout(spec, scanner, set);
  reportStderr(spec, live.stdio?.stderrTail.lastLines(20) ?? [], set);
  return finish();
}

type SetStep = (id: DoctorStepId, status: DoctorStep['status'], finding: string, extra?: Partial<DoctorStep>) => void;

function checkConfigStep(spec: ServerSpec, raw: DoctorOptions['config']['servers'][string], options: DoctorOptions, set: SetStep): void {
  const referenced = collectVariables(raw);
  const variables = referenced.map((name) => `${name}${options.env[name] ? '' : ' (default)'}`);
  if (spec.transport !== 'stdio') {
    const headers = redactMap(spec.headers);
    set('config', 'ok', `${redactUrl(spec.url)}${Object.keys(headers).length ? ` · headers: ${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join(', ')}` : ''}`, {
      data: { url: redactUrl(spec.url), headers, variables: referenced },
    });
    return;
  }
  const env = redactMap(spec.env);
  const lookup = findCommand(spec.command, spec.cwd, { ...options.env, ...spec.env }.PATH);
  const details = [`${spec.command} ${spec.args.join(' ')}`.trim(), `cwd ${spec.cwd}`];
  if (Object.keys(env).length) details.push(`env: ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  if (variables.length) details.push(`variables: ${variables.join(', ')}`);
  const data = { command: spec.command, args: spec.args, cwd: spec.cwd, env, variables: referenced, command_path: lookup.found ? lookup.path : null };
  if (!existsSync(spec.cwd)) set('config', 'fail', `working directory does not exist: ${spec.cwd}`, { details, fix: 'fix "cwd" in the config (relative paths start at the config file)', data });
  else if (!lookup.found) set('config', 'fail', `command not found: ${lookup.reason}`, { details, fix: `install '${spec.command}', or give its absolute path in "command"`, data });
  else set('config', 'ok', `${spec.command} found at ${lookup.path}`, { details, data });
}

function collectVariables(raw: DoctorOptions['config']['servers'][string]): string[] {
  const texts = raw.transport === 'stdio' ? [raw.command, ...raw.args, ...Object.values(raw.env), raw.cwd ?? ''] : [raw.url, ...Object.values(raw.headers)];
  return [...new Set(texts.flatMap(listEnvReferences))];
}

function reportConnectFailure(spec: ServerSpec, failure: ConnectFailure, attemptsText: string, set: SetStep): void {
  const fix = failure.checks.join('; ') || undefined;
  const data = { attempts: failure.attempts, exit: failure.exit ?? null, reason: failure.reason };
  const notStarted = /^(command not found|command not executable|working directory|could not start)/.test(failure.reason);
  if (notStarted) {
    set('spawn', 'fail', failure.reason, { fix, data });
    set('initialize', 'skip', 'not run: the process did not start');
  } else if (failure.exit && spec.transport === 'stdio') {
    const how = failure.exit.signal ? `killed by ${failure.exit.signal}` : `exited with code ${failure.exit.code}`;
    set('spawn', 'fail', `the process started, then ${how} before answering initialize (attempt ${attemptsText})`, { fix, data });
    set('initialize', 'skip', 'not reached: the process exited');
  } else {
    set('spawn', spec.transport === 'stdio' ? 'ok' : 'fail', spec.transport === 'stdio' ? 'process started' : failure.reason, spec.transport === 'stdio' ? {} : { fix, data });
    set('initialize', 'fail', `${failure.reason} (attempt ${attemptsText})`, { fix, data });
  }
}

async function reportTools(connection: ServerConnection, options: DoctorOptions, set: SetStep): Promise<void> {
  const findings = checkMcpTools(connection.name, connection.tools);
  const local = new Set(options.localToolNames);
  for (const tool of connection.tools) {
    if (local.has(tool.name)) findings.push({ server: connection.name, tool: tool.name, severity: 'warning', message: `a local tool has the same name: this one answers to ${connection.name}:${tool.name}` });
  }
  const counts: string[] = [`${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'}`];
  const data: Record<string, unknown> = { tools: connection.tools.length, tool_names: connection.tools.map((tool) => tool.name), findings };
  // Resources and prompts are counted when offered, every page of them.
  const client = connection.client;
  const listings = [
    { capability: 'resources', noun: 'resource', page: (cursor?: string) => client.listResources(cursor ? { cursor } : undefined, { timeout: options.timeoutMs }).then((r) => ({ count: r.resources.length, next: r.nextCursor })) },
    { capability: 'prompts', noun: 'prompt', page: (cursor?: string) => client.listPrompts(cursor ? { cursor } : undefined, { timeout: options.timeoutMs }).then((r) => ({ count: r.prompts.length, next: r.nextCursor })) },
  ] as const;
  for (const listing of listings) {
    if (!connection.capabilities?.[listing.capability]) continue;
    try {
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = await listing.page(cursor);
        count += page.count;
        cursor = page.next;
      } while (cursor);
      counts.push(`${count} ${listing.noun}${count === 1 ? '' : 's'}`);
      data[listing.capability] = count;
    } catch (error) {
      findings.push({ server: connection.name, tool: `(${listing.capability})`, severity: 'warning', message: `${listing.capability}/list failed: ${(error as Error).message}` });
    }
  }
  const details = findings.map((finding) => `${finding.severity === 'error' ? '✖' : '⚠'} ${finding.tool}: ${finding.message}`);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  if (connection.tools.length === 0 && !connection.capabilities?.tools) set('tools', 'ok', `no tools offered${counts.length > 1 ? ` · ${counts.slice(1).join(' · ')}` : ''}`, { data });
  else if (errors > 0) set('tools', 'fail', `${counts.join(' · ')} · ${errors} definition problem${errors === 1 ? '' : 's'}`, { details, fix: 'fix the tool definitions on the server: clients may refuse or mis-call these tools', data });
  else if (findings.length > 0) set('tools', 'warn', `${counts.join(' · ')} · ${findings.length} warning${findings.length === 1 ? '' : 's'}`, { details, data });
  else set('tools', 'ok', `${counts.join(' · ')} · schemas compile, names follow the MCP rules, all described`, { data });
}

async function reportLatency(connection: ServerConnection, options: DoctorOptions, set: SetStep): Promise<void> {
  const pings: number[] = [];
  let pingError: string | undefined;
  for (let i = 0; i < PINGS; i++) {
    const started = performance.now();
    try {
      await connection.client.ping({ timeout: options.timeoutMs });
      pings.push(performance.now() - started);
    } catch (error) {
      pingError = (error as Error).message;
      break;
    }
  }
  const median = pings.length ? [...pings].sort((a, b) => a - b)[Math.floor(pings.length / 2)]! : undefined;
  const data: Record<string, unknown> = { ping_ms: pings.map((ms) => Math.round(ms * 100) / 100), ping_median_ms: median === undefined ? null : Math.round(median * 100) / 100 };
  const parts = median === undefined ? [] : [`ping median ${median.toFixed(2)} ms (${pings.length} pings)`];
  let status: DoctorStep['status'] = pingError ? 'fail' : 'ok';
  let fix = pingError ? 'answer ping requests (the spec requires it; clients use it for health checks)' : undefined;
  if (options.call) {
    const started = performance.now();
    try {
      const schema = connection.tools.find((tool) => tool.name === options.call!.tool)?.inputSchema as Record<string, unknown> | undefined;
      const result = await connection.client.callTool({ name: options.call.tool, arguments: options.call.args(schema) }, undefined, { timeout: options.timeoutMs });
      const ms = performance.now() - started;
      data.call = { tool: options.call.tool, ms: Math.round(ms * 100) / 100, is_error: Boolean(result.isError) };
      parts.push(`${options.call.tool} ${result.isError ? 'returned an error' : 'answered'} in ${ms.toFixed(1)} ms`);
      if (result.isError) {
        status = 'fail';
        fix = `the call returned isError: ${(result.content as Array<{ type: string; text?: string }>).map((item) => item.text ?? '').join(' ').slice(0, 200)}`;
      }
    } catch (error) {
      status = 'fail';
      data.call = { tool: options.call.tool, error: (error as Error).message };
      parts.push(`${options.call.tool} failed: ${(error as Error).message}`);
    }
  }
  set('latency', status, pingError ? `ping failed: ${pingError}${parts.length ? ` · ${parts.join(' · ')}` : ''}` : parts.join(' · '), { fix, data });
}

function reportStdout(spec: ServerSpec, scanner: StdoutScanner, set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stdout', 'skip', 'remote server: no stdout to check');
  const report = scanner.end();
  const { lines, messages, pollutingLines, warningLines } = report.summary;
  const details = report.findings.slice(0, 5).map((finding) => `line ${finding.line}, byte ${finding.offset}: ${finding.kind}  ${JSON.stringify(finding.text)}`);
  if (report.findings.length > 5) details.push(`… ${report.findings.length - 5} more (toolrun mcp check-stdout ${spec.name} lists them all)`);
  const data = { lines, messages, polluting_lines: pollutingLines, findings: report.findings.slice(0, 50) };
  if (pollutingLines > 0) {
    const kinds = Object.keys(report.summary.byKind).join(', ');
    return set('stdout', 'fail', `${pollutingLines} of ${lines} lines are not clean JSON-RPC (${kinds})`, { details, fix: FIX_ADVICE, data });
  }
  if (lines === 0) return set('stdout', 'ok', 'nothing written', { data });
  if (warningLines > 0) return set('stdout', 'warn', `${lines} lines, ${messages} JSON-RPC messages; ${warningLines} with warnings (${Object.keys(report.summary.byKind).join(', ')})`, { details, fix: KIND_INFO.crlf.summary, data });
  set('stdout', 'ok', `${lines} line${lines === 1 ? '' : 's'}, all JSON-RPC`, { data });
}

function reportStderr(spec: ServerSpec, stderrLines: string[], set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stderr', 'skip', 'remote server: no stderr to read');
  const marked = stderrLines.map((line) => (ERROR_LINE.test(line) ? `! ${line}` : `  ${line}`));
  const errorLines = stderrLines.filter((line) => ERROR_LINE.test(line));
  const checks = inferChecks(stderrLines.join('\n'));
  const data = { lines: stderrLines, error_lines: errorLines.length };
  if (stderrLines.length === 0) return set('stderr', 'ok', 'nothing written', { data });
  const count = `${stderrLines.length} line${stderrLines.length === 1 ? '' : 's'}`;
  if (errorLines.length > 0) return set('stderr', 'warn', `${count}, ${errorLines.length} error-like (marked !)`, { details: marked, fix: checks.join('; ') || undefined, data });
  set('stderr', 'ok', `${count}, no errors`, { details: marked, data });
}

function buildReport(server: string, transport: string, steps: Map<DoctorStepId, DoctorStep>, startedAt: number, forcedExit?: number): DoctorReport {
  const ordered = STEP_ORDER.map((id) => steps.get(id) ?? { id, status: 'skip' as const, finding: 'not run', details: [], data: {} });
  const problems = ordered.filter((step) => step.status === 'fail').length;
  const warnings = ordered.filter((step) => step.status === 'warn').length;
  const exitCode = forcedExit ?? (problems > 0 ? ExitCode.FAILURE : ExitCode.OK);
  const verdict = exitCode === ExitCode.UNREACHABLE ? 'unreachable' : exitCode === ExitCode.OK ? 'healthy' : 'problems';
  return { server, transport, steps: ordered, problems, warnings, verdict, exitCode, durationMs: Math.round(performance.now() - startedAt) };
}
