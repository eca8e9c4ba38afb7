import type { ToolrunConfig } from '../config/config-types.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { hostEnvironment, howToPassVariables } from '../process/launch-environment.js';

/**
 * With `--host`, a server that says it misses a variable your shell exports is not told to "set" it:
 * it is set, the host just does not pass it (SPEC §13). The check then says exactly that, with the way
 * to pass it in that host's syntax, as `mcp doctor --host` does (doctor/host-difference.ts).
 */
export function hostAwareChecks(failure: ConnectFailure, config: ToolrunConfig, callerEnv: NodeJS.ProcessEnv): ConnectFailure {
  const launch = config.host?.terminalEnv === false ? config.host.launch : undefined;
  const raw = config.servers[failure.server];
  if (!launch || failure.causeId !== 'env-variable-missing' || raw?.transport !== 'stdio') return failure;
  const name = failure.causeSubject;
  if (!name || callerEnv[name] === undefined || hostEnvironment(launch, callerEnv, raw.env)[name] !== undefined) return failure;
  const check = `${name} is exported by your shell, but ${launch.title} does not pass it to the server: ${howToPassVariables(launch, [name])} (or run with --terminal-env)`;
  return { ...failure, checks: [check, ...failure.checks.filter((line) => !line.includes(name))] };
}
