import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import type { Style } from './style.js';

/**
 * SPEC §4's failure box: reason, the server's stderr, and what to check. `shownState`: a server its
 * host gates, where the command lists all servers: shown with that state, not as a failure.
 */
export function formatConnectFailure(failure: ConnectFailure, style: Style, shownState?: string): string {
  const attempts = `${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}`;
  const lines = [
    shownState
      ? style.yellow(`○ MCP server '${failure.server}' not started (${shownState})`)
      : style.red(failure.notStarted ? `✖ MCP server '${failure.server}' not started` : `✖ MCP connection failed after ${attempts}: server '${failure.server}'`),
    `  Reason: ${failure.reason}`,
  ];
  if (failure.stderrErrorLines.length > 0) {
    lines.push(`  MCP server stderr, error-like lines before the last ${failure.stderrLines.length}:`);
    for (const line of failure.stderrErrorLines) lines.push(`    ${line}`);
  }
  if (failure.stderrLines.length > 0) {
    lines.push(`  MCP server stderr (last ${failure.stderrLines.length} line${failure.stderrLines.length === 1 ? '' : 's'}):`);
    for (const line of failure.stderrLines) lines.push(`    ${line}`);
  }
  if (failure.pollution.length > 0) {
    lines.push('  Not JSON-RPC on stdout:');
    for (const line of failure.pollution.slice(0, 5)) lines.push(`    ${JSON.stringify(line)}`);
  }
  for (const check of failure.checks) lines.push(`  Check: ${check}`);
  return lines.join('\n');
}

/** The degraded-mode line after failures, for commands that go on without those servers. */
export function formatContinuing(failures: ConnectFailure[], connectedCount: number, localToolNames: string[]): string {
  if (connectedCount === 0) return `Continuing with local tools only (${localToolNames.join(', ')})`;
  const names = failures.map((failure) => `'${failure.server}'`).join(', ');
  return `Continuing without server${failures.length === 1 ? '' : 's'} ${names}`;
}
