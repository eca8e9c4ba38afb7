import { existsSync } from 'node:fs';
import { listEnvReferences } from '../config/expand-env.js';
import type { ServerSpec } from '../config/resolve-server.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { maskArgs, maskNamedValues, maskSecrets } from '../secrets/mask-secrets.js';
import { serverEnvironment } from '../process/launch-environment.js';
import { findCommand } from './find-command.js';
import type { DoctorOptions } from './doctor-types.js';
import type { SetStep } from './set-step.js';

/** Steps 1 to 3 of doctor before a session exists: the config entry, and why spawn or initialize failed. */

export function checkConfigStep(spec: ServerSpec, raw: DoctorOptions['config']['servers'][string], options: DoctorOptions, set: SetStep): void {
  const referenced = collectVariables(raw);
  const variables = referenced.map((name) => `${name}${options.env[name] ? '' : ' (default)'}`);
  if (spec.transport !== 'stdio') {
    const headers = maskNamedValues(spec.headers);
    set(
      'config',
      'ok',
      `${maskSecrets(spec.url)}${
        Object.keys(headers).length
          ? ` · headers: ${Object.entries(headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}`
          : ''
      }`,
      {
        data: { url: maskSecrets(spec.url), headers, variables: referenced },
      },
    );
    return;
  }
  const env = maskNamedValues(spec.env);
  const lookup = findCommand(spec.command, spec.cwd, serverEnvironment(spec, options.env).PATH);
  const args = maskArgs(spec.args);
  const details = [`${spec.command} ${args.join(' ')}`.trim(), `cwd ${spec.cwd}`];
  if (Object.keys(env).length)
    details.push(
      `env: ${Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
  if (variables.length) details.push(`variables: ${variables.join(', ')}`);
  const data = { command: spec.command, args, cwd: spec.cwd, env, variables: referenced, command_path: lookup.found ? lookup.path : null };
  if (!existsSync(spec.cwd)) set('config', 'fail', `working directory does not exist: ${spec.cwd}`, { details, fix: 'fix "cwd" in the config (relative paths start at the config file)', data });
  else if (!lookup.found) {
    // With --host, the PATH looked in is the host's: say whose.
    const reason = spec.launch && !spec.command.includes('/') ? `'${spec.command}' is not on ${spec.launch.title}'s PATH` : lookup.reason;
    set('config', 'fail', `command not found: ${reason}`, { details, fix: `install '${spec.command}', or give its absolute path in "command"`, data });
  } else set('config', 'ok', `${spec.command} found at ${lookup.path}`, { details, data });
}

function collectVariables(raw: DoctorOptions['config']['servers'][string]): string[] {
  const texts = raw.transport === 'stdio' ? [raw.command, ...raw.args, ...Object.values(raw.env), raw.cwd ?? ''] : [raw.url, ...Object.values(raw.headers)];
  return [...new Set(texts.flatMap(listEnvReferences))];
}

export function reportConnectFailure(spec: ServerSpec, failure: ConnectFailure, allowedAttempts: number, set: SetStep): void {
  const fix = failure.checks.join('; ') || undefined;
  const data = { attempts: failure.attempts, exit: failure.exit ?? null, reason: failure.reason, cause: failure.causeId, retryable: failure.retryable };
  const attempts = attemptsNote(failure, allowedAttempts);
  if (failure.phase === 'spawn') {
    set('spawn', 'fail', failure.reason, { fix, data });
    set('initialize', 'skip', 'not run: the process did not start');
  } else if (spec.transport !== 'stdio') {
    // Nothing is spawned for a remote server: its failure is one problem, the connection's or the handshake's.
    if (NO_CONNECTION_CAUSES.has(failure.causeId)) {
      set('spawn', 'fail', `${failure.reason} (${attempts})`, { fix, data });
      set('initialize', 'skip', 'not reached: no connection');
    } else {
      set('spawn', 'skip', 'remote server: nothing to start');
      set('initialize', 'fail', `${failure.reason} (${attempts})`, { fix, data });
    }
  } else if (failure.exit) {
    // The same Reason line as exec's failure box and mcp list --check.
    set('spawn', 'fail', `the process started, then failed: ${failure.reason} (${attempts})`, { fix, data });
    set('initialize', 'skip', 'not reached: the process exited');
  } else {
    set('spawn', 'ok', 'process started');
    set('initialize', 'fail', `${failure.reason} (${attempts})`, { fix, data });
  }
}

/** Causes that mean no HTTP answer came at all (the cause table's ids). */
const NO_CONNECTION_CAUSES = new Set(['remote-refused', 'invalid-url']);

/** "attempt 3 of 3", or for a failure retrying cannot fix, that none followed and why (not "attempt 1 of 3"). */
function attemptsNote(failure: ConnectFailure, allowedAttempts: number): string {
  if (failure.retryable || failure.attempts >= allowedAttempts) return `attempt ${failure.attempts} of ${allowedAttempts}`;
  const notRetried = 'not retried: it would fail the same way';
  return failure.attempts === 1 ? notRetried : `attempt ${failure.attempts} of ${allowedAttempts}; ${notRetried}`;
}
