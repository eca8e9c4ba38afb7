import type { HostName } from './host-types.js';

/** How one host starts a stdio server (SPEC §13 "host-faithful spawn"). Provisional: the table with sources lands next. */
export interface HostLaunch {
  host: HostName;
  title: string;
  inherits: 'all' | readonly string[];
  path?: string;
  cwd: 'home' | 'project' | 'caller' | 'root';
  resolution: 'path' | 'shell';
  sources: readonly string[];
}

const SDK_POSIX = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export function hostLaunch(host: HostName, platform: NodeJS.Platform): HostLaunch {
  if (host === 'claude-desktop')
    return { host, title: 'Claude Desktop', inherits: SDK_POSIX, path: platform === 'darwin' ? '/usr/bin:/bin:/usr/sbin:/sbin' : undefined, cwd: 'root', resolution: 'path', sources: [] };
  return { host, title: host, inherits: 'all', cwd: 'caller', resolution: 'path', sources: [] };
}

export function hostEnvironment(launch: HostLaunch, callerEnv: NodeJS.ProcessEnv, entryEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(callerEnv)) if (value !== undefined && (launch.inherits === 'all' || launch.inherits.includes(key))) env[key] = value;
  if (launch.path !== undefined) env.PATH = launch.path;
  return { ...env, ...entryEnv };
}
