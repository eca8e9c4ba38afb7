import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { registerMcpAppsCommand } from './mcp-apps.js';
import { registerMcpCheckStdoutCommand } from './mcp-check-stdout.js';
import { registerMcpConformCommand } from './mcp-conform.js';
import { registerMcpDiffCommand } from './mcp-diff.js';
import { registerMcpDoctorCommand } from './mcp-doctor.js';
import { registerMcpLintCommand } from './mcp-lint.js';
import { registerMcpListCommand } from './mcp-list.js';
import { registerMcpMockCommand } from './mcp-mock.js';
import { registerMcpReplayCommand } from './mcp-replay.js';
import { registerMcpShowCommand } from './mcp-show.js';
import { registerMcpSnapshotCommand } from './mcp-snapshot.js';
import { registerMcpTapCommand } from './mcp-tap.js';
import { registerMcpVerifyCommand } from './mcp-verify.js';

/** `toolrun mcp …`: commands about the MCP servers themselves. */
export function registerMcpCommands(program: Command, run: CommandRunner): Command {
  const mcp = program
    .command('mcp')
    .description('inspect and diagnose the configured MCP servers')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp list --check
  $ toolrun --config home.json mcp doctor zwave
  $ toolrun --config home.json mcp check-stdout zwave --save zwave.rec
  $ toolrun mcp show zwave.rec`,
    );
  registerMcpListCommand(mcp, run);
  registerMcpDoctorCommand(mcp, run);
  registerMcpCheckStdoutCommand(mcp, run);
  registerMcpShowCommand(mcp, run);
  registerMcpTapCommand(mcp, run);
  registerMcpReplayCommand(mcp, run);
  registerMcpConformCommand(mcp, run);
  registerMcpSnapshotCommand(mcp, run);
  registerMcpDiffCommand(mcp, run);
  registerMcpLintCommand(mcp, run);
  registerMcpMockCommand(mcp, run);
  registerMcpAppsCommand(mcp, run);
  registerMcpVerifyCommand(mcp, run);
  return mcp;
}
