import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The environment and working folder of the command being run. A command reads them from its
 * CliContext; code below it that is not handed one (a server's launch environment, a config found
 * from the working folder) reads them here, so that a command run in-process (runCli's `env` and
 * `cwd` options: the library, tests) starts servers with its own environment, not the host
 * process's, even with several commands running at once.
 */
interface RunEnvironment {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const current = new AsyncLocalStorage<RunEnvironment>();

export function withRunEnvironment<T>(environment: RunEnvironment, run: () => T): T {
  return current.run(environment, run);
}

/** The running command's environment (process.env outside one). */
export function currentEnv(): NodeJS.ProcessEnv {
  return current.getStore()?.env ?? process.env;
}

/** The running command's working folder (process.cwd() outside one). */
export function currentCwd(): string {
  return current.getStore()?.cwd ?? process.cwd();
}
