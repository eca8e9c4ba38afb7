import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { commandWordOf } from '../../src/commands/top-level-commands.js';

/** The top-level commands a run of `words` registers (a run registers only its own command). */
function registered(...words: string[]): string[] {
  const sink = new PassThrough() as unknown as NodeJS.WriteStream;
  const program = buildProgram(
    sink,
    sink,
    async () => {},
    (built) => commandWordOf(['node', 'toolrun', ...words], built),
  );
  return program.commands.map((command) => command.name());
}

describe('which commands a run registers', () => {
  it('only the command named, past global options and their values', () => {
    expect(registered('exec', 'get_current_datetime')).toEqual(['exec']);
    expect(registered('--config', 'exec', 'list')).toEqual(['list']);
    expect(registered('--json', '-c', 'x.json', '--timeout', '500', '--config=y.json', 'mcp', 'doctor')).toEqual(['mcp']);
  });

  it('every command for the program help, a typo, help, no command or anything after --', () => {
    const all = registered();
    expect(all).toEqual(expect.arrayContaining(['list', 'exec', 'validate', 'time', 'mcp', 'session', 'shell', 'hosts', 'auth', 'completion']));
    expect(all.length).toBeGreaterThanOrEqual(14);
    for (const words of [['--help', 'exec'], ['-h'], ['exc', 'x'], ['help', 'exec'], ['--', 'exec']]) expect(registered(...words)).toEqual(all);
  });
});
