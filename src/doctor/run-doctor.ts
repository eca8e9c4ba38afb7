import { resolveServer, type ServerSpec } from '../config/resolve-server.js';
import { ConfigError, ExitCode, ServerNotStartedError } from '../errors.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { AttemptScan, openSession, ServerConnectError } from '../mcp/connect/open-session.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { suggestNames } from '../registry/suggest-names.js';
import { makeDoctorCall, type DoctorCallOutcome } from './doctor-call.js';
import type { DoctorOptions, DoctorReport, DoctorStep, DoctorStepId } from './doctor-types.js';
import { reportStderr, reportStdout } from './output-steps.js';
import { reportLatency, reportTools } from './session-steps.js';
import { checkConfigStep, reportConnectFailure } from './setup-steps.js';
import { reportSessionEnd } from './session-end-step.js';
import { reportHostStep } from './host-step.js';
import { reportAuthStep } from './auth-step.js';
import { maskThenCut } from '../secrets/mask-secrets.js';
import { quoteShellWord, toolrunCommand } from '../text/quote-shell-word.js';

const STEP_ORDER: DoctorStepId[] = ['config', 'host', 'auth', 'spawn', 'initialize', 'tools', 'stdout', 'stderr', 'latency', 'shutdown'];

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
    if (error instanceof ServerNotStartedError) {
      // The host would not start it (or only the host can): said, with what to do in the host; nothing is started.
      set('config', 'fail', `not started: ${error.refusal.reason}`, { fix: error.refusal.fix });
      for (const id of STEP_ORDER.slice(1)) set(id, 'skip', 'not run: the server is not started');
      return finish(ExitCode.UNREACHABLE);
    }
    if (!(error instanceof ConfigError)) throw error;
    const fix =
      error.code === 'host-only-variable'
        ? 'replace the VS Code variable with the value, or with ${NAME} and an environment variable'
        : error.code === 'unset-variable'
          ? options.config.host && !options.config.host.launch.variableDefaults
            ? `set the variable where ${options.config.host.launch.title} runs (${options.config.host.launch.title} has no \${NAME:-default})`
            : 'set the variable, or give a default in the config: ${NAME:-value}'
          : 'fix the ${…} reference in the config: ${NAME} or ${NAME:-default}';
    set('config', 'fail', error.jsonPath ? `${error.jsonPath}: ${error.detail}` : error.detail, { fix });
    for (const id of STEP_ORDER.slice(1)) if (id !== 'host' && (id !== 'auth' || raw.transport !== 'stdio')) set(id, 'skip', 'not run: the config entry does not resolve');
    return finish(ExitCode.CONFIG);
  }
  checkConfigStep(spec, raw, options, set);

  // The auth step (remote servers): a broken chain, or no token where one is needed, ends the diagnosis here.
  if (spec.transport !== 'stdio') {
    options.onStep?.('auth');
    const storedToken = options.lookupToken ? await options.lookupToken(options.server, spec.url) : undefined;
    const clientId = (raw as { oauth?: { clientId?: unknown } }).oauth?.clientId;
    const auth = await reportAuthStep(
      spec,
      {
        server: options.server,
        timeoutMs: spec.connectTimeoutMs,
        signal: options.signal,
        probe: options.authProbe,
        clientId: typeof clientId === 'string' ? clientId : undefined,
        storedToken,
        loginInline: options.loginInline,
        traceMachineToken: options.traceMachineToken && ((hints) => options.traceMachineToken!(spec, hints)),
      },
      set,
    );
    if (!auth.connect) {
      const why = auth.trace?.outcome === 'broken' ? 'not run: the authorization chain is broken' : `not run: no stored token (${toolrunCommand('auth', 'login', options.server)})`;
      for (const id of STEP_ORDER.slice(STEP_ORDER.indexOf('spawn'))) set(id, 'skip', why);
      return finish(ExitCode.UNREACHABLE);
    }
  }

  // 2 + 3. spawn and initialize (with the config's retry)
  options.onStep?.('spawn');
  const scan = new AttemptScan();
  let connection: ServerConnection | undefined;
  let failure: ConnectFailure | undefined;
  try {
    // Patient: the shutdown step judges whether the server exits when its stdin closes.
    connection = await openSession(spec, options.config.retry, { logger: options.logger, signal: options.signal, stdoutScan: scan, hooks: { patientShutdown: true, askBack: options.askBack } });
  } catch (error) {
    if (!(error instanceof ServerConnectError)) throw error;
    failure = error.failure;
  }
  if (options.config.host && spec.transport === 'stdio') await reportHostStep(spec, options.config, failure, options, set);

  if (failure) {
    reportConnectFailure(spec, failure, options.config.retry.attempts, set);
    set('tools', 'skip', 'not run: no connection');
    set('latency', 'skip', 'not run: no connection');
    set('shutdown', 'skip', failure.exit ? 'the process had already exited' : 'not run: no connection');
    reportStdout(spec, scan.current, set);
    reportStderr(
      spec,
      {
        tail: failure.stderrLines,
        earlierErrorLines: failure.stderrErrorLines,
        earlierCapped: failure.stderrErrorLinesCapped,
        lineCount: failure.stderrLineCount,
        errorLikeCount: failure.stderrErrorLikeCount,
        fixes: [],
        serverFailed: true,
      },
      set,
    );
    return finish(ExitCode.UNREACHABLE);
  }

  const live = connection!;
  set(
    'spawn',
    'ok',
    spec.transport === 'stdio'
      ? `process started${live.stdio?.pid ? ` (pid ${live.stdio.pid})` : ''} in ${Math.round(live.timings.spawnMs ?? 0)} ms`
      : `connected over ${live.transportKind === 'sse' ? 'SSE' : 'Streamable HTTP'}`,
    { data: { spawn_ms: live.timings.spawnMs, transport: live.transportKind } },
  );
  options.onStep?.('initialize');
  const capabilities = Object.keys(live.capabilities ?? {});
  const server = live.serverInfo ? `${live.serverInfo.name} ${live.serverInfo.version}` : 'unnamed server';
  const era = live.era;
  const eraText = `protocol ${live.protocolVersion ?? '?'} (${era.era === 'modern' ? 'stateless 2026-07-28 era' : 'initialize era'}) · ${era.chosenBy === 'auto' ? 'chosen automatically: ' : ''}${era.how}`;
  const initFinding = `${era.handshake} answered in ${Math.round(live.timings.initializeMs)} ms · ${eraText} · ${server} · capabilities: ${capabilities.join(', ') || 'none'}`;
  const initData = {
    initialize_ms: live.timings.initializeMs,
    handshake: era.handshake,
    protocol_version: live.protocolVersion,
    protocol_era: era.era,
    protocol_chosen_by: era.chosenBy,
    protocol_how: era.how,
    server_info: live.serverInfo,
    capabilities: live.capabilities,
    attempt: live.attempt,
  };
  if (live.attempt > 1)
    set('initialize', 'warn', `connected on attempt ${live.attempt} of ${options.config.retry.attempts}: flaky start · ${initFinding}`, {
      fix: 'make the server start reliably (see stderr), or keep retry.attempts high enough',
      data: initData,
    });
  else if (live.installed) set('initialize', 'ok', `${initFinding} · the package runner installed the package first (cold cache; not counted against connectTimeoutMs)`, { data: initData });
  else set('initialize', 'ok', initFinding, { data: initData });

  // 4. tools
  options.onStep?.('tools');
  const callOutcome = options.call ? await callTool(live, options.call, options.timeoutMs) : undefined;
  await reportTools(live, options, set, callOutcome);

  // 7. latency (before shutdown, on the live connection)
  options.onStep?.('latency');
  await reportLatency(live, options, set, callOutcome);

  // 8. shutdown
  options.onStep?.('shutdown');
  const shutdownStarted = performance.now();
  const closed = await live.close();
  const outcome = typeof closed === 'string' ? closed : undefined;
  const shutdownMs = Math.round(performance.now() - shutdownStarted);
  const leftBehind = live.stdio?.leftBehind ?? [];
  const shutdownData = { outcome, shutdown_ms: shutdownMs, left_behind: leftBehind.map(({ pid, command }) => ({ pid, command })) };
  if (spec.transport !== 'stdio') reportSessionEnd(live.transportKind, typeof closed === 'object' ? closed : undefined, shutdownMs, set);
  else if (leftBehind.length > 0) {
    const listed = leftBehind
      .slice(0, 3)
      .map(({ pid, command }) => `pid ${pid} (${maskThenCut(command, 80)})`)
      .join(', ');
    set(
      'shutdown',
      'fail',
      `${describeOutcome(outcome, shutdownMs)}, but left ${leftBehind.length} process${leftBehind.length === 1 ? '' : 'es'} running: ${listed}; toolrun ended ${leftBehind.length === 1 ? 'it' : 'them'}`,
      {
        fix: 'end every child process when the server exits: a detached (setsid) helper outlives the server in other clients',
        data: shutdownData,
      },
    );
  } else if (outcome === 'stdin-closed') set('shutdown', 'ok', describeOutcome(outcome, shutdownMs), { data: shutdownData });
  else if (outcome === 'SIGTERM') set('shutdown', 'warn', describeOutcome(outcome, shutdownMs), { fix: 'exit when stdin closes (clients close stdin first, then wait)', data: shutdownData });
  else if (outcome === 'SIGKILL')
    set('shutdown', 'fail', describeOutcome(outcome, shutdownMs), { fix: 'exit on stdin close, and do not ignore SIGTERM: clients kill servers that linger', data: shutdownData });
  else
    set('shutdown', 'fail', `the process exited by itself during the session${live.stdio?.exitInfo ? ` (code ${live.stdio.exitInfo.code}, signal ${live.stdio.exitInfo.signal})` : ''}`, {
      fix: 'see stderr: the server crashed while it was being used',
      data: shutdownData,
    });

  // 5 + 6. stdout and stderr, now that the process is gone and every line was seen
  options.onStep?.('stdout');
  reportStdout(spec, scan.current, set);
  const stderr = live.stdio?.stderr;
  reportStderr(
    spec,
    {
      tail: stderr?.lastLines(20) ?? [],
      earlierErrorLines: stderr?.errorLinesBefore(20) ?? [],
      earlierCapped: stderr?.errorLinesCapped,
      lineCount: stderr?.lineCount ?? 0,
      errorLikeCount: stderr?.errorLikeCount ?? 0,
      fixes: [...(stderr?.causes.values() ?? [])].map((cause) => cause.fix),
    },
    set,
  );
  return finish();
}

/** The `--call` call, its key=value words typed by the tool's input schema. */
function callTool(connection: ServerConnection, call: NonNullable<DoctorOptions['call']>, timeoutMs: number): Promise<DoctorCallOutcome> {
  const tool = connection.tools.find((candidate) => candidate.name === call.tool);
  if (!tool) {
    const close = suggestNames(
      call.tool,
      connection.tools.map((candidate) => candidate.name),
    );
    return Promise.resolve({
      tool: call.tool,
      ms: 0,
      notListed: true,
      error: `the server lists no tool '${call.tool}'${close.length > 0 ? ` (did you mean ${close.map(quoteShellWord).join(', ')}?)` : ''}`,
    });
  }
  return makeDoctorCall(connection, call.tool, call.args(tool.inputSchema as Record<string, unknown>), timeoutMs);
}

function describeOutcome(outcome: string | undefined, ms: number): string {
  if (outcome === 'SIGTERM') return `did not exit when its stdin closed; ended by SIGTERM (${ms} ms)`;
  if (outcome === 'SIGKILL') return `ignored stdin close and SIGTERM; needed SIGKILL (${ms} ms)`;
  if (outcome === 'stdin-closed') return `exited when its stdin closed (${ms} ms)`;
  return 'had already exited';
}

function buildReport(server: string, transport: string, steps: Map<DoctorStepId, DoctorStep>, startedAt: number, forcedExit?: number): DoctorReport {
  // The host step is there only with --host (a stdio server started the host's way), the auth step only for a remote server.
  const ordered = STEP_ORDER.filter((id) => (id !== 'host' && id !== 'auth') || steps.has(id)).map((id) => steps.get(id) ?? { id, status: 'skip' as const, finding: 'not run', details: [], data: {} });
  const problems = ordered.filter((step) => step.status === 'fail').length;
  const warnings = ordered.filter((step) => step.status === 'warn').length;
  const exitCode = forcedExit ?? (problems > 0 ? ExitCode.FAILURE : ExitCode.OK);
  const verdict = exitCode === ExitCode.UNREACHABLE ? 'unreachable' : exitCode === ExitCode.OK ? 'healthy' : 'problems';
  return { server, transport, steps: ordered, problems, warnings, verdict, exitCode, durationMs: Math.round(performance.now() - startedAt) };
}
