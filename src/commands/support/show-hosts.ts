import { ExitCode } from '../../errors.js';
import type { HostFileReport } from '../../hosts/find-hosts.js';
import { findHostFiles, hostPlaces, mergeHostServers } from '../../hosts/host-config.js';
import type { HostServer } from '../../hosts/host-types.js';
import { escapeTableCell as oneLine } from '../../output/escape-controls.js';
import type { Style } from '../../output/style.js';
import type { Terminal } from '../../output/terminal.js';
import { maskArgs, maskSecrets } from '../../secrets/mask-secrets.js';

/**
 * `toolrun hosts`: every host config found, its servers and problems (SPEC §13). Called by the
 * command, and by fast-hosts.ts before the CLI loads (the same output: one function).
 */
export async function showHosts(terminal: Terminal, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const places = hostPlaces(env, cwd);
  const reports = await findHostFiles(places);
  if (terminal.json) {
    await terminal.resultJson({ platform: places.platform, project: places.projectDirs.at(-1), files: reports.map(describeFile) });
    return ExitCode.OK;
  }
  if (reports.length === 0) {
    await terminal.result(`no MCP host config found (looked in your home and in ${places.projectDirs.at(-1)})`);
    return ExitCode.OK;
  }
  const style = terminal.outStyle;
  const lines: string[] = [];
  for (const report of reports) {
    const count = `${report.servers.length} server${report.servers.length === 1 ? '' : 's'}`;
    lines.push(`${style.bold(report.host)} ${report.scope} ${oneLine(report.path)}  ${count}`);
    // Names, paths and problems come from files anyone may have written: a line break must not forge a line.
    for (const problem of report.problems) lines.push(`  ${style.red('✖')} ${oneLine(problem)}`);
    for (const server of report.servers) lines.push(`  ${serverLine(server, style)}`);
  }
  // Which entry each host really uses, when a name is in more than one of its files.
  const shadowed: string[] = [];
  for (const host of new Set(reports.map((report) => report.host))) {
    const mine = reports.filter((report) => report.host === host);
    for (const [name, server] of mergeHostServers(mine)) {
      const others = mine.filter((report) => report !== server.report && report.servers.some((entry) => entry.name === name));
      if (others.length > 0)
        shadowed.push(oneLine(`${host}: '${name}' from ${server.report.path} (${server.report.scope}) wins over ${others.map((other) => `${other.path} (${other.scope})`).join(', ')}`));
    }
  }
  if (shadowed.length > 0) lines.push('', ...shadowed);
  lines.push('', `Run a host's servers: toolrun --host NAME[:SCOPE] list`, `Copy them into a toolrun config: toolrun hosts import NAME[:SCOPE] [SERVER…]`);
  await terminal.result(lines.join('\n'));
  return ExitCode.OK;
}

/** The server's state in its host: whether the host starts it, and if not, why. */
function stateOf(server: HostServer): string {
  if (server.disabled) return 'disabled';
  if (server.gate) return server.gate.state;
  if (server.hostOnly || server.unresolved.length > 0) return 'host-only';
  return server.approved ? 'approved' : 'enabled';
}

function serverLine(server: HostServer, style: Style): string {
  const entry = server.entry;
  const what =
    typeof entry.url === 'string' ? `${entry.type ?? 'remote'} ${maskSecrets(entry.url)}` : `stdio ${[entry.command, ...maskArgs(Array.isArray(entry.args) ? entry.args.map(String) : [])].join(' ')}`;
  const notes: string[] = [];
  if (server.disabled) notes.push(style.yellow('disabled (skipped)'));
  else if (server.gate) notes.push(style.red(`✖ not started: ${server.gate.reason}; ${server.gate.fix}`));
  else if (server.approved) notes.push(style.green(`approved (${server.approved})`));
  if (server.hostOnly) notes.push(style.red(`✖ ${server.hostOnly.reason} (not started)`));
  if (server.unresolved.length > 0) notes.push(style.red(`✖ uses ${[...new Set(server.unresolved)].join(', ')}: only the host can fill it in (refused)`));
  if (server.unsupported.length > 0) notes.push(style.yellow(`not honoured by toolrun: ${server.unsupported.join(', ')}`));
  return oneLine(`${server.name}  ${what}${notes.length > 0 ? `  ${notes.join('; ')}` : ''}`);
}

/** A file for `--json`: names of env variables and headers, never their values (SPEC §8). */
function describeFile(report: HostFileReport) {
  return {
    host: report.host,
    scope: report.scope,
    path: report.path,
    servers: report.servers.length,
    problems: report.problems,
    entries: report.servers.map((server) => ({
      name: server.name,
      transport: typeof server.entry.url === 'string' ? (server.entry.type ?? 'auto') : 'stdio',
      command: typeof server.entry.command === 'string' ? server.entry.command : undefined,
      args: Array.isArray(server.entry.args) ? maskArgs(server.entry.args.map(String)) : undefined,
      url: typeof server.entry.url === 'string' ? maskSecrets(server.entry.url) : undefined,
      env: server.entry.env && typeof server.entry.env === 'object' ? Object.keys(server.entry.env) : undefined,
      headers: server.entry.headers && typeof server.entry.headers === 'object' ? Object.keys(server.entry.headers) : undefined,
      disabled: server.disabled,
      /** enabled, approved (a project server the host approved), disabled, pending-approval, rejected, untrusted, denied, host-only. */
      state: stateOf(server),
      ...(server.gate && { reason: server.gate.reason, fix: server.gate.fix }),
      ...(server.hostOnly && { reason: server.hostOnly.reason, fix: server.hostOnly.fix }),
      ...(server.approved && { approvedBy: server.approved }),
      unsupported: server.unsupported,
      unresolved: [...new Set(server.unresolved)],
    })),
  };
}
