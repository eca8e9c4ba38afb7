import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';

/** Every command of the tree, the root first. */
function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap((child) => allCommands(child))];
}

describe('help texts', () => {
  // Users do not have toolrun's SPEC.md: help says the thing itself, never "SPEC §N".
  it('never cite SPEC sections', async () => {
    const sink = new PassThrough();
    const program = buildProgram(sink as unknown as NodeJS.WriteStream, sink as unknown as NodeJS.WriteStream, async () => {});
    // outputHelp, not helpInformation: the examples and notes added after the options are read too.
    const helpOf = (command: Command) => {
      command.outputHelp();
      return String(sink.read() ?? '');
    };
    const cited = allCommands(program).filter((command) => /SPEC\s*§/.test(helpOf(command)));
    expect(cited.map((command) => command.name())).toEqual([]);
  });
});
