import type { StdioServerSpec } from '../config/resolve-server.js';
import type { ToolrunConfig } from '../config/config-types.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { openSession, ServerConnectError } from '../mcp/connect/open-session.js';
import { serverEnvironment } from '../process/launch-environment.js';
import type { HostLaunch } from '../process/launch-environment.js';
import { explainHostDifference } from './host-difference.js';
import type { DoctorOptions } from './doctor-types.js';
import type { SetStep } from './set-step.js';

/**
 * The host step of `mcp doctor --host` (SPEC §13): how the server was started, and when the host's
 * way failed, whether the terminal's way works, and the one difference that explains it.
 */
export async function reportHostStep(spec: StdioServerSpec, config: ToolrunConfig, failure: ConnectFailure | undefined, options: DoctorOptions, set: SetStep): Promise<void> {
  const host = config.host!;
  const title = host.launch.title;
  if (host.terminalEnv || !spec.launch) {
    set('host', 'ok', `started with your terminal's environment, PATH and folder (--terminal-env), not as ${title} starts it`, { data: { way: 'terminal', host: host.launch.host } });
    return;
  }
  const data = { way: 'host', host: spec.launch.host, ...describeLaunch(spec.launch), cwd: spec.cwd, sources: spec.launch.sources };
  const how = `${launchSummary(spec.launch)}, in ${spec.cwd}`;
  if (!failure) {
    set('host', 'ok', `started as ${title} starts it: ${how}`, { data });
    return;
  }
  // The terminal's way: the caller's whole environment and folder, one attempt (a flaky server's retries were the host way's).
  const raw = config.servers[spec.name];
  const terminalCwd = raw?.transport === 'stdio' ? raw.terminalCwd : undefined;
  const terminalSpec: StdioServerSpec = { ...spec, launch: undefined, cwd: terminalCwd ?? spec.cwd };
  let terminalFailure: ConnectFailure | undefined;
  try {
    const connection = await openSession(terminalSpec, { attempts: 1, baseDelayMs: 0 }, { logger: options.logger, signal: options.signal });
    await connection.close();
  } catch (error) {
    if (!(error instanceof ServerConnectError)) throw error;
    terminalFailure = error.failure;
  }
  if (terminalFailure) {
    set('host', 'ok', `fails with your terminal's environment too (${terminalFailure.reason}): not a difference between ${title} and your terminal (${how})`, {
      data: { ...data, terminal_way: 'failed' },
    });
    return;
  }
  const difference = explainHostDifference({
    title,
    command: spec.command,
    args: spec.args,
    hostEnv: serverEnvironment(spec, options.env),
    terminalEnv: serverEnvironment(terminalSpec, options.env),
    hostCwd: spec.cwd,
    terminalCwd: terminalSpec.cwd,
    entryHasCwd: terminalCwd === undefined,
    entryCwdIgnored: spec.launch.entryCwd === 'ignored',
    passVariable: spec.launch.passVariable,
    stderr: [...failure.stderrErrorLines, ...failure.stderrLines],
  });
  set('host', 'fail', `works with your terminal's environment, not as ${title} starts it: ${difference.finding}`, { fix: difference.fix, data: { ...data, terminal_way: 'works' } });
}

function describeLaunch(launch: HostLaunch) {
  return { inherits: launch.inherits, path: launch.path ?? null, resolution: launch.resolution };
}

/** "HOME, LOGNAME, PATH, SHELL, TERM, USER of your variables and the entry's env; PATH /usr/bin:/bin:…" */
function launchSummary(launch: HostLaunch): string {
  const variables = launch.inherits === 'all' ? "all your variables and the entry's env" : `only ${launch.inherits.join(', ')} of your variables, and the entry's env`;
  return `${variables}${launch.path ? `; PATH ${launch.path}` : ''}${launch.resolution === 'shell' ? '; through a shell' : ''}`;
}
