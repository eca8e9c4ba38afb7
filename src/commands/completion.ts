import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../completion/completion-scripts.js';
import { ExitCode, UsageError } from '../errors.js';

export function registerCompletionCommand(program: Command, run: CommandRunner): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish): commands, options, server and tool names')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `
The script completes commands, options, server names from the config the line names (--config,
--host, or the usual lookup) and tool names from the tool index: a server's tools are offered once a
command such as 'toolrun list' has listed them. Completing never starts a server.

Examples:
  $ source <(toolrun completion bash)                                     # in ~/.bashrc
  $ toolrun completion bash | sudo tee /etc/bash_completion.d/toolrun
  $ toolrun completion zsh > "\${fpath[1]}/_toolrun"                        # then: autoload -U compinit && compinit
  $ toolrun completion fish > ~/.config/fish/completions/toolrun.fish`,
    )
    .action((shell: string) =>
      run(async (cli) => {
        if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) throw new UsageError(`unknown shell '${shell}': toolrun completion takes bash, zsh or fish`);
        const script = completionScript(shell as CompletionShell);
        if (cli.globals.json) await cli.terminal.resultJson({ shell, script });
        else await cli.terminal.result(script, { verbatim: true });
        return ExitCode.OK;
      }),
    );
}
