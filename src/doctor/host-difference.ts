import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, resolve } from 'node:path';
import { findCommand } from './find-command.js';
import { howToPassVariables } from '../process/launch-environment.js';

/** What doctor knows when a server fails as its host starts it but works with the terminal's environment. */
export interface HostDifferenceInput {
  /** "Claude Desktop". */
  title: string;
  command: string;
  args: readonly string[];
  hostEnv: NodeJS.ProcessEnv;
  terminalEnv: NodeJS.ProcessEnv;
  hostCwd: string;
  terminalCwd: string;
  /** The entry names its own cwd (then both ways start there). */
  entryHasCwd: boolean;
  /** The host ignores an entry's cwd (Claude Code, Zed): never suggested as a fix. */
  entryCwdIgnored?: boolean;
  /** How the host's entry passes a variable on (NAME for its name), or undefined when it expands none. */
  passVariable?: string;
  /** The server's stderr from the host's way (error lines first), to find what it says it misses. */
  stderr: readonly string[];
}

export interface HostDifference {
  /** One line: what differs, in terms of the user's files (never a variable's value). */
  finding: string;
  fix: string;
}

/**
 * The one difference that explains "works in my terminal, not in the host" (SPEC §13), tried in
 * the order a user would check: the command itself, the interpreter it needs, a variable the
 * server names, the folder it starts in; else the variables the host leaves out, by name.
 */
export function explainHostDifference(input: HostDifferenceInput): HostDifference {
  const { title, command } = input;
  const hostPath = input.hostEnv.PATH ?? '';
  const shownPath = shortPath(hostPath);
  const onHost = findCommand(command, input.hostCwd, hostPath);
  const onTerminal = findCommand(command, input.terminalCwd, input.terminalEnv.PATH);
  if (!onHost.found && onTerminal.found && !command.includes('/')) {
    const interpreter = missingInterpreter(onTerminal.path, input);
    return {
      finding: `\`${command}\` is at ${onTerminal.path}, which is not on ${title}'s PATH (${shownPath})`,
      fix: interpreter
        ? `use the absolute path as the entry's "command", and add "PATH": "${dirname(interpreter.path)}${delimiter}${hostPath}" to its "env" (${command} runs \`${interpreter.name}\`, also not on ${title}'s PATH)`
        : `use the absolute path as the entry's "command": "${onTerminal.path}"`,
    };
  }
  const interpreter = (onHost.found ? missingInterpreter(onHost.path, input) : undefined) ?? interpreterNamedInStderr(input);
  if (interpreter) {
    return {
      finding: `\`${command}\` runs \`${interpreter.name}\`, which is at ${interpreter.path}, not on ${title}'s PATH (${shownPath})`,
      fix: `add "PATH": "${dirname(interpreter.path)}${delimiter}${hostPath}" to the entry's "env", or use absolute paths`,
    };
  }
  const missing = Object.keys(input.terminalEnv).filter((name) => input.hostEnv[name] === undefined && input.terminalEnv[name] !== undefined);
  const named = missing.filter((name) => name.length >= 3 && /^[A-Z][A-Z0-9_]*$/.test(name) && input.stderr.some((line) => new RegExp(`\\b${name}\\b`).test(line)));
  if (named.length > 0) {
    const list = named.join(', ');
    return { finding: `the server needs ${list}, which your shell exports and ${title} does not pass`, fix: howToPassVariables(input, named) };
  }
  if (!input.entryHasCwd && input.hostCwd !== input.terminalCwd) {
    const relative = input.args.find((arg) => !arg.startsWith('-') && !isAbsolute(arg) && /[\\/.]/.test(arg) && exists(resolve(input.terminalCwd, arg)) && !exists(resolve(input.hostCwd, arg)));
    if (relative !== undefined) {
      return {
        finding: `\`${relative}\` is a relative path: ${title} starts the server in ${input.hostCwd}, your terminal in ${input.terminalCwd}`,
        fix: `use the absolute path ${resolve(input.terminalCwd, relative)}${input.entryCwdIgnored ? ` (${title} ignores an entry's "cwd")` : `, or set the entry's "cwd"`}`,
      };
    }
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 8).join(', ');
    return {
      finding: `${title} passes ${Object.keys(input.hostEnv).length} variables and your terminal ${Object.keys(input.terminalEnv).length}; the server needs one ${title} leaves out (${shown}${missing.length > 8 ? `, … ${missing.length - 8} more` : ''}), and its stderr does not say which`,
      fix: `add the variable the server needs to the entry's "env", or run it with --terminal-env meanwhile`,
    };
  }
  return {
    finding: `only the folder or PATH order differs (${title}: ${input.hostCwd}, PATH ${shownPath})`,
    fix: `compare the two ways with --verbose; ${input.entryCwdIgnored ? 'use absolute paths' : `set the entry's "cwd" and absolute paths`}`,
  };
}

/** `#!/usr/bin/env node` in the command's file, when that interpreter is on the terminal's PATH only. */
function missingInterpreter(commandPath: string, input: HostDifferenceInput): { name: string; path: string } | undefined {
  const name = /^#!\s*\S*\/env\s+(?:-S\s+)?([^\s/]+)/.exec(firstLine(commandPath))?.[1];
  return name ? onTerminalOnly(name, input) : undefined;
}

/** `env: 'node': No such file or directory`, `sh: 1: node: not found`: a program the script could not find. */
function interpreterNamedInStderr(input: HostDifferenceInput): { name: string; path: string } | undefined {
  for (const line of input.stderr) {
    const name = /env: ['‘"]?([^'’":\s]+)['’"]?: No such file or directory/.exec(line)?.[1] ?? /(?:^|\s)([A-Za-z0-9_.+-]+): (?:command )?not found/.exec(line)?.[1];
    const found = name ? onTerminalOnly(name, input) : undefined;
    if (found) return found;
  }
  return undefined;
}

function onTerminalOnly(name: string, input: HostDifferenceInput): { name: string; path: string } | undefined {
  if (findCommand(name, input.hostCwd, input.hostEnv.PATH).found) return undefined;
  const lookup = findCommand(name, input.terminalCwd, input.terminalEnv.PATH);
  return lookup.found ? { name, path: lookup.path } : undefined;
}

/** The first line of a file, read as little as needed (a script's shebang), or '' for anything unreadable. */
function firstLine(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(256);
    return (
      head
        .subarray(0, readSync(fd, head, 0, head.length, 0))
        .toString('utf8')
        .split('\n')[0] ?? ''
    );
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** A PATH as it reads in one line: the first four folders, then how many more. */
function shortPath(path: string): string {
  const parts = path.split(delimiter).filter(Boolean);
  return parts.length <= 4 ? parts.join(delimiter) : `${parts.slice(0, 4).join(delimiter)}${delimiter}…`;
}
