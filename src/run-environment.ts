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

const current = new AsyncLocalStorage<RunEnvironment & { state: Map<object, unknown> }>();

export function withRunEnvironment<T>(environment: RunEnvironment, run: () => T): T {
  return current.run({ ...environment, state: new Map() }, run);
}

/**
 * Module state that belongs to one command (the hooks the CLI hands the engine: the inline login, the
 * auth warnings and what was said, the auth request timeout): the returned getter gives the running
 * command's own copy, made by `initial` on first use, so two commands in one process (the library,
 * tests) neither see nor overwrite each other's; outside a command, one copy for the process.
 */
export function perRunState<T>(initial: () => T): () => T {
  const key = {};
  let processWide: T | undefined;
  return () => {
    const store = current.getStore();
    if (!store) return (processWide ??= initial());
    if (!store.state.has(key)) store.state.set(key, initial());
    return store.state.get(key) as T;
  };
}

/** The running command's environment (process.env outside one). */
export function currentEnv(): NodeJS.ProcessEnv {
  return current.getStore()?.env ?? process.env;
}

/** The running command's working folder (process.cwd() outside one). */
export function currentCwd(): string {
  return current.getStore()?.cwd ?? process.cwd();
}

/** Variables the running command keeps from the servers it starts (serve's own bearer token). */
const keptFromServers = perRunState(() => new Set<string>());

/** Keeps `name` out of the environment of every server the running command starts from now on. */
export function keepFromServers(name: string): void {
  keptFromServers().add(name);
}

/** The environment a server started by the running command inherits: the command's, less what it keeps back. */
export function serverCallerEnv(): NodeJS.ProcessEnv {
  const env = currentEnv();
  const kept = keptFromServers();
  if (kept.size === 0) return env;
  const copy = { ...env };
  for (const name of kept) delete copy[name];
  return copy;
}
