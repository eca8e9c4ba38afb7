import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { registerAuthCommands } from './auth.js';
import { registerExecCommand } from './exec.js';
import { registerHostsCommand } from './hosts.js';
import { registerListCommand } from './list.js';
import { registerMcpCommands } from './mcp.js';
import { registerTimeCommand } from './time.js';
import { registerTestCommand } from './test.js';
import { registerEvalCommand } from './eval.js';
import { registerResourcesCommand } from './resources.js';
import { registerPromptsCommand } from './prompts.js';
import { registerCompleteCommand } from './complete.js';
import { registerCompletionCommand } from './completion.js';
import { registerTasksCommand } from './tasks.js';
import { registerSessionCommands } from './session.js';
import { registerServeCommand } from './serve.js';
import { registerShellCommand } from './shell.js';
import { registerValidateCommand } from './validate.js';
import { registerSkillsCommand } from './skills.js';
import { registerLockCommand } from './lock.js';

type Register = (program: Command, run: CommandRunner) => unknown;

/**
 * Each top-level command, by name, in the order help lists them. A run registers only the command it
 * was given (commandWordOf): building every command's options and help is ~8 ms of each start.
 */
export const COMMANDS: Record<string, Register> = {
  list: registerListCommand,
  exec: registerExecCommand,
  validate: registerValidateCommand,
  time: registerTimeCommand,
  resources: registerResourcesCommand,
  prompts: registerPromptsCommand,
  skills: registerSkillsCommand,
  complete: registerCompleteCommand,
  tasks: registerTasksCommand,
  test: registerTestCommand,
  eval: registerEvalCommand,
  mcp: registerMcpCommands,
  session: registerSessionCommands,
  shell: registerShellCommand,
  serve: registerServeCommand,
  hosts: registerHostsCommand,
  lock: registerLockCommand,
  auth: registerAuthCommands,
  completion: registerCompletionCommand,
};

/**
 * The command word of `argv` (node, script, ...words): the first word that is neither an option nor
 * the value of a global option that takes one (`--config FILE exec …`). Undefined when there is none
 * or it is not a command (help, a typo): then every command is loaded, for help and suggestions.
 */
export function commandWordOf(argv: readonly string[], program: Command): string | undefined {
  const valued = new Set(program.options.filter((option) => option.required || option.optional).flatMap((option) => [option.long, option.short].filter((flag): flag is string => Boolean(flag))));
  const words = argv.slice(2);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // Help asked before the command is the program's help, which lists every command.
    if (word === '--' || word === '-h' || word === '--help') return undefined;
    if (!word.startsWith('-') || word === '-') return word in COMMANDS ? word : undefined;
    if (valued.has(word)) i++;
  }
  return undefined;
}
