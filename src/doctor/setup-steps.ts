import { existsSync } from 'node:fs';
import { listEnvReferences } from '../config/expand-env.js';
import type { ServerSpec } from '../config/resolve-server.js';
import type { ConnectFailure } from '../mcp/connect-failure.js';
import { maskArgs, maskNamedValues, maskSecrets } from '../secrets/mask-secrets.js';
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
  const lookup = findCommand(spec.command, spec.cwd, { ...options.env, ...spec.env }.PATH);
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
  else if (!lookup.found) set('config', 'fail', `command not found: ${lookup.reason}`, { details, fix: `install '${spec.command}', or give its absolute path in "command"`, data });
  else set('config', 'ok', `${spec.command} found at ${lookup.path}`, { details, data });
}

function collectVariables(raw: DoctorOptions['config']['servers'][string]): string[] {
  const texts = raw.transport === 'stdio' ? [raw.command, ...raw.args, ...Object.values(raw.env), raw.cwd ?? ''] : [raw.url, ...Object.values(raw.headers)];
  return [...new Set(texts.flatMap(listEnvReferences))];
}

export function reportConnectFailure(spec: ServerSpec, failure: ConnectFailure, attemptsText: string, set: SetStep): void {
  const fix = failure.checks.join('; ') || undefined;
  const data = { attempts: failure.attempts, exit: failure.exit ?? null, reason: failure.reason, cause: failure.causeId, retryable: failure.retryable };
  if (failure.phase === 'spawn') {
    set('spawn', 'fail', failure.reason, { fix, data });
    set('initialize', 'skip', 'not run: the process did not start');
  } else if (failure.exit && spec.transport === 'stdio') {
    // The same Reason line as exec's failure box and mcp list --check.
    set('spawn', 'fail', `the process started, then failed: ${failure.reason} (attempt ${attemptsText})`, { fix, data });
    set('initialize', 'skip', 'not reached: the process exited');
  } else {
    set('spawn', spec.transport === 'stdio' ? 'ok' : 'fail', spec.transport === 'stdio' ? 'process started' : failure.reason, spec.transport === 'stdio' ? {} : { fix, data });
    set('initialize', 'fail', `${failure.reason} (attempt ${attemptsText})`, { fix, data });
  }
}
