import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectFailure } from '../../mcp/connect/connect-failure.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { ExitCode } from '../../errors.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import { openTools } from './open-tools.js';
import { SHELL_SERVERS_ENV } from '../../shell/shell-servers-env.js';

export interface ConnectedServers {
  /** The servers that connected and offer the capability, in config order. */
  offering: ServerConnection[];
  /** Every server that connected. */
  connected: ServerConnection[];
  failures: ConnectFailure[];
}

/**
 * Connects the named servers (all configured ones by default) for a command about resources or
 * prompts, failures reported as for tools; says which of them offer the capability.
 */
export async function connectServersFor(cli: CliContext, names: string[] | undefined, capability: keyof ServerCapabilities, options: { useSession?: boolean } = {}): Promise<ConnectedServers> {
  const { config, registry, connect } = await openTools(cli, { useSession: options.useSession ?? true });
  const wanted = names?.length ? names : (shellServers(cli.env) ?? Object.keys(config.servers));
  // Their tools are not registered: nothing here calls them (and two servers' same-named tools are not this command's business).
  const failures = await connect(wanted, { registerTools: false });
  const connected = wanted.flatMap((name) => {
    const status = registry.servers.get(name);
    return status?.status === 'connected' ? [status.connection] : [];
  });
  return { offering: connected.filter((connection) => connection.capabilities?.[capability]), connected, failures };
}

/** Run from `toolrun shell`: the shell's servers, which it holds (the default instead of every configured one). */
export function shellServers(env: NodeJS.ProcessEnv): string[] | undefined {
  const value = env[SHELL_SERVERS_ENV];
  if (!value) return undefined;
  try {
    const names: unknown = JSON.parse(value);
    return Array.isArray(names) && names.length > 0 && names.every((name) => typeof name === 'string') ? (names as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Exit 4's companion line: which servers could not be asked. */
export function describeFailures(failures: ConnectFailure[]): string {
  return `MCP server${failures.length === 1 ? '' : 's'} ${failures.map((failure) => `'${failure.server}'`).join(', ')} could not be connected; ${failures.length === 1 ? 'its' : 'their'} items are missing`;
}

/** A listing's exit code: 4 when a server could not be asked (its items are missing), said on stderr. */
export function exitAfterListing(cli: CliContext, failures: ConnectFailure[]): number {
  if (failures.length === 0) return ExitCode.OK;
  cli.terminal.warn(describeFailures(failures));
  return ExitCode.UNREACHABLE;
}

/** Why a listing is empty, for stderr: no server offers the capability, or those that do list none. */
export function describeEmptyListing(what: string, capability: string, servers: ConnectedServers): string {
  const { offering, connected } = servers;
  if (connected.length === 0) return `no ${what}: no MCP server connected`;
  if (offering.length === 0) return `no ${what}: none of the connected servers (${connected.map((connection) => connection.name).join(', ')}) offers ${capability}`;
  return `no ${what}: ${offering.map((connection) => connection.name).join(', ')} offer${offering.length === 1 ? 's' : ''} ${capability} but list${offering.length === 1 ? 's' : ''} none`;
}
