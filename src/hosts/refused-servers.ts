import type { RawServerConfig, ServerRefusal } from '../config/config-types.js';
import type { HostServer, HostName } from './host-types.js';

/**
 * Why toolrun will not start a host's server (undefined: it starts it): the host would not (its
 * gate), or only the host can (a variable or an entry toolrun cannot fill in). A disabled server is
 * not refused: it is left out, as the host leaves it out.
 */
export function refusalOf(server: HostServer, host: HostName): ServerRefusal | undefined {
  if (server.gate) return { kind: server.gate.state, reason: server.gate.reason, fix: server.gate.fix };
  if (server.hostOnly) return { kind: server.hostOnly.extension ? 'host-extension' : 'host-only-entry', reason: server.hostOnly.reason, fix: server.hostOnly.fix };
  if (server.unresolved.length > 0) {
    return {
      kind: 'host-only-variable',
      reason: `it uses ${[...new Set(server.unresolved)].join(', ')}, which only ${host} can fill in`,
      fix: 'put the value in the entry, or an environment variable the host reads',
    };
  }
  return undefined;
}

/**
 * A refused server's place in the config: enough of its entry to be listed (transport, command or URL),
 * and the refusal that stops anything from starting it.
 */
export function refusedEntry(name: string, entry: Record<string, unknown>, refusal: ServerRefusal): RawServerConfig {
  if (typeof entry.url === 'string') {
    const transport = entry.type === 'sse' ? 'sse' : entry.type === 'http' ? 'http' : 'auto';
    return { transport, name, url: entry.url, headers: {}, refused: refusal };
  }
  const args = Array.isArray(entry.args) ? entry.args.filter((arg): arg is string => typeof arg === 'string') : [];
  return { transport: 'stdio', name, command: typeof entry.command === 'string' ? entry.command : '', args, env: {}, refused: refusal };
}

/**
 * Refusals that are no failure where a command lists all of a host's servers (`list`, `mcp list
 * --check`): the host's own verdict (not approved, rejected, an untrusted project or folder, denied
 * by policy) or a server the host runs through one of its extensions. Such a server is shown with
 * its state, as `toolrun hosts` shows it; a command that names it (`exec`, `list --server`, `mcp
 * doctor`) still fails on it (exit 4). A variable only the host fills in, a missing envFile or an
 * entry toolrun cannot read stay failures: the host would start that server, and toolrun cannot.
 */
const SHOWN_NOT_FAILED = new Set<string>(['pending-approval', 'rejected', 'untrusted', 'denied', 'host-extension']);

export function isGatedRefusal(kind: string): boolean {
  return SHOWN_NOT_FAILED.has(kind);
}

/** A refusal's kind as `toolrun hosts` names the state (show-hosts.ts stateOf): the gates by name, the rest `host-only`. */
export function hostStateOf(kind: string): string {
  return kind.startsWith('host-') ? 'host-only' : kind;
}
