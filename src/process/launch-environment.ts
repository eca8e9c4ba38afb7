/**
 * How a stdio server's environment is made: as its host starts it (`--host`, SPEC §13; the facts
 * per host are in hosts/host-launch.ts), or toolrun's way. Here, below the config and the hosts, so
 * that the code that spawns servers needs neither.
 */

import { geminiEnvironment } from './gemini-environment.js';

/** How one host starts a stdio server (SPEC §13 "host-faithful spawn"). */
export interface HostLaunch {
  /** The host's name as `--host` takes it (hosts/host-types.ts). */
  host: string;
  /** Display name: "Claude Desktop", "VS Code"… */
  title: string;
  /** The caller's variables the server gets: every one ('all'), or only these names (plus the entry's env, always). */
  inherits: 'all' | readonly string[];
  /** The PATH the host process itself has when it replaces the caller's (a macOS GUI app started by launchd: '/usr/bin:/bin:/usr/sbin:/sbin'); undefined: the caller's PATH. */
  path?: string;
  /** Working directory when the entry names none: 'home', 'project' (the workspace/project folder), 'caller' (the folder the host was started in: toolrun's cwd), or 'root' ('/', a GUI app launched by the OS). */
  cwd: 'home' | 'project' | 'caller' | 'root';
  /**
   * How an entry passes one of the caller's variables on to its server, in the host's own syntax, NAME
   * standing for the variable (`"env": {"NAME": "${NAME}"}`); undefined when the host expands none.
   */
  passVariable?: string;
  /** The host's config syntax has `${NAME:-default}` (Claude Code, Gemini CLI): a fix may suggest one. */
  variableDefaults?: true;
  /** The entry's own `cwd`: honoured (default), or ignored by the host (Claude Code, Zed), which starts the server in its own folder. */
  entryCwd?: 'ignored';
  /** How the command is found: 'path' (looked up on the server's PATH, no shell), 'shell' (run through a shell, `sh -c` / `cmd /c`). */
  resolution: 'path' | 'shell';
  /** What becomes of a PATH in the entry's env: it replaces the host's (default), is appended to it (VS Code), or is overridden by it (Continue). */
  entryPath?: 'append' | 'ignored';
  /** The host filters what it inherits by name and value (Gemini CLI drops variables that look secret): process/gemini-environment.ts. */
  sanitize?: 'gemini';
  /** One source per fact (URL, or repo:path@commit-ish), for the comment and for `doctor`'s output. */
  sources: readonly string[];
}

/**
 * The environment the host's server gets: the inherited variables of `callerEnv` (PATH replaced when launch.path
 * is set), then `entryEnv` on top. Pure. Windows names compared case-insensitively: `platform` (an addition to the
 * agreed signature, optional) says which rule, since a launch does not record it.
 */
export function hostEnvironment(launch: HostLaunch, callerEnv: NodeJS.ProcessEnv, entryEnv: Record<string, string>, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const fold = (name: string) => (platform === 'win32' ? name.toUpperCase() : name);
  const listed = launch.inherits === 'all' ? undefined : new Set(launch.inherits.map(fold));
  // Keyed by the folded name so that on Windows `Path` from the caller and `PATH` from the entry are one variable.
  const env = new Map<string, [string, string]>();
  const inherited = launch.sanitize === 'gemini' ? geminiEnvironment(callerEnv) : callerEnv;
  for (const [name, value] of Object.entries(inherited)) {
    if (value !== undefined && (!listed || listed.has(fold(name)))) env.set(fold(name), [name, value]);
  }
  // The host's own PATH reaches the server only if the host passes PATH on at all.
  if (launch.path !== undefined && (!listed || listed.has(fold('PATH')))) env.set(fold('PATH'), [env.get(fold('PATH'))?.[0] ?? 'PATH', launch.path]);
  const inheritedPath = env.get(fold('PATH'));
  for (const [name, value] of Object.entries(entryEnv)) env.set(fold(name), [name, value]);
  const entryPath = Object.entries(entryEnv).find(([name]) => fold(name) === fold('PATH'))?.[1];
  if (entryPath !== undefined && inheritedPath !== undefined && launch.entryPath === 'ignored') env.set(fold('PATH'), inheritedPath);
  if (entryPath !== undefined && inheritedPath !== undefined && launch.entryPath === 'append')
    env.set(fold('PATH'), [inheritedPath[0], `${inheritedPath[1]}${platform === 'win32' ? ';' : ':'}${entryPath}`]);
  return Object.fromEntries(env.values());
}

/**
 * The whole environment a stdio server starts with. As its host starts it (`--host`: the host's
 * variables and PATH), or toolrun's way: the caller's whole environment plus the entry's own, so
 * HTTPS_PROXY, NODE_EXTRA_CA_CERTS and friends reach the server (the SDK passes only six).
 */
export function serverEnvironment(spec: { env: Record<string, string>; launch?: HostLaunch }, callerEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return spec.launch ? hostEnvironment(spec.launch, callerEnv, spec.env) : { ...callerEnv, ...spec.env };
}

/**
 * How to have the host pass these variables on, in its own syntax: a reference where the host expands
 * one (the value stays out of the file), else the value itself, the only way such a host has.
 */
export function howToPassVariables(launch: Pick<HostLaunch, 'title' | 'passVariable'>, names: readonly string[]): string {
  const them = names.length === 1 ? 'it' : 'them';
  if (launch.passVariable) return `pass ${them} on in the entry: ${names.map((name) => launch.passVariable!.replaceAll('NAME', name)).join(', ')}`;
  return `add ${them} to the entry's "env" with ${names.length === 1 ? 'its value' : 'their values'} (${names.map((name) => `"${name}": "…"`).join(', ')}): ${launch.title} expands no variables in its config`;
}
