import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { collectNameValue } from '../cli-support/name-value-option.js';
import type { VerifyOptions } from './support/verify-run.js';

/** `toolrun mcp verify` (SPEC §25): does a server.json or a .mcpb launch the way hosts will launch it? */
export function registerMcpVerifyCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('verify')
    .description(
      "check a server.json (MCP Registry) or a .mcpb bundle offline: schema, the registry's rules, and the exact command a host composes for each package; --launch starts each one and runs the handshake, conform and lint",
    )
    .argument('<file-or-folder...>', 'a server.json, a .mcpb, an unpacked bundle (its folder or manifest.json), or a folder holding them')
    .option('--launch', 'start each package as a host would (installing it as npx/uvx/docker do: network needed) and run the handshake, mcp conform and mcp lint on it')
    .option('--input <name=value>', "a value for one of the server.json's {placeholders} or variables, as a user would type it in the host (repeatable)", collectNameValue, {})
    .option('--user-config <key=value>', "a value for one of the bundle's user_config settings (repeatable)", collectNameValue, {})
    .option('--platform <name>', "expand the bundle's platform_overrides for this platform (darwin, win32, linux; default: this machine's)")
    .option('--junit <file>', 'also write a JUnit XML report (a testcase per package, remote and file)')
    .option('--sarif <file>', 'also write a SARIF 2.1.0 report (a result per finding and failed launch)')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp verify server.json
  $ toolrun mcp verify server.json --input API_KEY=test-key --launch
  $ toolrun mcp verify dist/weather.mcpb --user-config allowed_dirs=/tmp --launch
  $ toolrun mcp verify . --junit verify.xml            # every server.json and .mcpb in the folder
  $ toolrun --json mcp verify server.json | jq '.reports[].entries[] | {id, launch}'

Exit codes: 0 every entry passes (warnings allowed) · 1 a schema error, a rule broken, a package that
cannot be composed or did not launch · 2 bad usage (no such file)`,
    )
    .action((files: string[], options: VerifyOptions) => run(async (cli) => (await import('./support/verify-run.js')).runVerify(cli, files, options)));
}
