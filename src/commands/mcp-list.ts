import type { Command } from 'commander';
import type { RawServerConfig } from '../config/config-types.js';
import { ExitCode } from '../errors.js';
import { formatTable } from '../output/format-tool-list.js';
import type { CommandRunner } from './cli-context.js';
import { openTools } from './open-tools.js';

interface McpListOptions {
  check?: boolean;
}

export function registerMcpListCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('list')
    .description('the configured MCP servers: name, transport, command or URL; with --check, whether each connects')
    .option('--check', 'connect to each server (in parallel, with retry): status, tool count, connect time')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp list
  $ toolrun --config home.json mcp list --check          # exit 4 if a server does not connect
  $ toolrun --config home.json --json mcp list --check`,
    )
    .action((options: McpListOptions) =>
      run(async (cli) => {
        const opened = await openTools(cli);
        const servers = Object.values(opened.config.servers);
        const failures = options.check ? await opened.connect() : [];
        const rows = servers.map((server) => {
          const status = opened.registry.servers.get(server.name);
          const base = { name: server.name, transport: server.transport === 'stdio' ? 'stdio' : server.transport === 'auto' ? 'http (sse fallback)' : server.transport, target: describeTarget(server) };
          if (!options.check) return base;
          if (status?.status === 'connected') {
            const { connection } = status;
            return { ...base, transport: connection.transportKind, status: 'ok', tools: connection.tools.length, connect_ms: connection.timings.totalMs, attempt: connection.attempt, server_info: connection.serverInfo };
          }
          return { ...base, status: 'failed', error: status?.status === 'failed' ? status.failure.reason : 'not connected' };
        });
        if (cli.globals.json) await cli.terminal.resultJson({ config: opened.config.path, servers: rows });
        else if (rows.length === 0) await cli.terminal.result(`no MCP servers configured${opened.config.path ? ` in ${opened.config.path}` : ' (no config file found; pass --config)'}`);
        else {
          const headers = options.check ? ['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'CONNECT', 'COMMAND / URL'] : ['NAME', 'TRANSPORT', 'COMMAND / URL'];
          const style = cli.terminal.outStyle;
          const table = rows.map((row) => {
            if (!options.check) return [row.name, row.transport, row.target];
            const checked = row as typeof row & { status: string; tools?: number; connect_ms?: number; error?: string };
            const ok = checked.status === 'ok';
            return [row.name, row.transport, ok ? style.green('✔ ok') : style.red('✖ failed'), ok ? String(checked.tools) : '-', ok ? `${Math.round(checked.connect_ms!)} ms` : '-', ok ? row.target : `${row.target}  (${checked.error})`];
          });
          await cli.terminal.result(formatTable(headers, table, undefined));
        }
        return failures.length > 0 ? ExitCode.UNREACHABLE : ExitCode.OK;
      }),
    );
}

function describeTarget(server: RawServerConfig): string {
  if (server.transport === 'stdio') return [server.command, ...server.args].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ');
  return server.url;
}
