import { describe, expect, it } from 'vitest';
import { inlineLoginFor } from '../../src/cli-support/inline-login.js';
import type { Terminal } from '../../src/output/terminal.js';

const cli = (env: NodeJS.ProcessEnv) => ({ env, signal: new AbortController().signal, terminal: {} as Terminal });

describe('inlineLoginFor (SPEC §14: a browser only when someone can answer it)', () => {
  it('is off without $BROWSER and without a terminal: the command exits 4 instead of waiting', () => {
    expect(inlineLoginFor(cli({}), false)).toBeUndefined();
    expect(inlineLoginFor(cli({ BROWSER: '  ' }), false)).toBeUndefined();
  });

  it('is on when $BROWSER names a program, or on a terminal', () => {
    expect(inlineLoginFor(cli({ BROWSER: '/usr/bin/true' }), false)).toBeTypeOf('function');
    expect(inlineLoginFor(cli({}), true)).toBeTypeOf('function');
  });
});
