import type { Argument, Command, Option } from 'commander';
import { profileNames } from '../conform/profiles.js';
import { LOG_LEVELS } from '../protocol/log-levels.js';
import { PROTOCOL_SETTINGS } from '../protocol/protocol-era.js';
import type { ArgumentNode, CommandNode, OptionNode, WordKind } from './command-tree.js';

/** What an option's value is, by its long name (the program says only "<path>", "<name>"…). */
const OPTION_KINDS: Record<string, WordKind> = {
  '--config': 'file',
  '--host': 'host',
  '--server': 'server',
  '--wrap': 'host',
  '--unwrap': 'host',
  '--call': 'tool',
  '--file': 'file',
  '--save': 'file',
  '--record': 'file',
  '--junit': 'file',
  '--output': 'file',
  '--output-dir': 'file',
  '--into': 'file',
  '--answers': 'file',
  '--sampling': 'file',
  '--root': 'file',
};

/** Values the program checks with a parser of its own rather than commander's choices. */
const OPTION_VALUES: Record<string, readonly string[]> = { '--protocol': PROTOCOL_SETTINGS, '--log-level': LOG_LEVELS, '--profile': profileNames() };

/** What a positional argument is, by its name in the program. */
const ARGUMENT_KINDS: Record<string, WordKind> = {
  server: 'server',
  servers: 'server',
  'server-or-command': 'server',
  a: 'server',
  b: 'server',
  tool: 'tool',
  skill: 'skill',
  file: 'file',
  'host[:scope]': 'host',
};

/** A kind of one command's argument, over ARGUMENT_KINDS (by command path and name): OAuth is for remote servers only. */
const COMMAND_ARGUMENT_KINDS: Record<string, WordKind> = { 'auth.login.server': 'remote-server', 'skills.read.file': 'none' };

/** The same, for positional arguments (by command path and name). */
const ARGUMENT_VALUES: Record<string, readonly string[]> = { 'complete.kind': ['prompt', 'resource'], 'completion.shell': ['bash', 'zsh', 'fish'] };

/**
 * The completion table of a commander program: every visible command (hidden ones left out), its
 * long options with their short forms, its positional arguments, and short descriptions. The test
 * of command-table.generated.ts compares this with the committed table.
 */
export function describeProgram(program: Command): CommandNode {
  return describeCommand(program, '');
}

/** `path`: the command's words from the root, dot-joined ('' for the program itself). */
function describeCommand(command: Command, path: string): CommandNode {
  const options = command.options
    .filter((option) => !option.hidden && option.long)
    .map(describeOption)
    .concat([{ long: '--help', short: '-h', takesValue: false, description: 'show help' }]);
  const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
  return {
    name: command.name(),
    description: shortDescription(command.description()),
    options,
    args: command.registeredArguments.map((argument) => describeArgument(argument, path)),
    commands: visible.map((sub) => describeCommand(sub, path ? `${path}.${sub.name()}` : sub.name())),
  };
}

function describeOption(option: Option): OptionNode {
  const long = option.long!;
  const values = option.argChoices ?? OPTION_VALUES[long];
  const kind = OPTION_KINDS[long];
  return {
    long,
    ...(option.short && { short: option.short }),
    takesValue: option.required || option.optional,
    description: shortDescription(option.description),
    ...(values && { values: [...values] }),
    ...(kind && { kind }),
  };
}

function describeArgument(argument: Argument, commandPath: string): ArgumentNode {
  const name = argument.name();
  const values = argument.argChoices ?? ARGUMENT_VALUES[`${commandPath}.${name}`];
  const kind = COMMAND_ARGUMENT_KINDS[`${commandPath}.${name}`] ?? ARGUMENT_KINDS[name] ?? 'none';
  return { name, variadic: argument.variadic, kind, ...(values && { values: [...values] }) };
}

/** The description up to its first parenthesis, semicolon or colon: what fits beside a candidate. */
function shortDescription(text: string): string {
  const short = text.split(/ \(|; |: /)[0]!.trim();
  return short.length > 60 ? `${short.slice(0, 59)}…` : short;
}
