import { describe, expect, it } from 'vitest';
import { quoteShellWord, toolrunCommand } from '../../src/text/quote-shell-word.js';
import { pasteInBash } from '../helpers/paste-in-bash.js';

// Words a config or a server may put into a command toolrun suggests (issue #31 item 2).
const HOSTILE = [
  'list_issues;touch${IFS}x',
  'a$(touch x)',
  'b`touch x`',
  "x'; touch x; echo '",
  '"; touch x; "',
  'two words',
  'line\nbreak; touch x',
  'tab\tand \\ backslash',
  '\x1b]0;title\x07 \x1b[2J',
  'c1 \u009b31m',
  'bidi \u202etxt.exe\u202c',
  "it's \\' $'\\x41'",
  '*',
  '~root',
  '=ls',
  '#comment',
  '{a,b}',
  '!!',
  '',
  'résumé-ünïcode',
  '--scope=x',
];

describe('quoteShellWord / toolrunCommand (every suggested command)', () => {
  it.each(HOSTILE.map((word) => [word]))('%j pasted into bash is one word, and runs nothing', (word) => {
    const command = toolrunCommand('resources', 'read', word, '--server', word);
    expect(command).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(pasteInBash(command)).toEqual({ argv: ['resources', 'read', word, '--server', word], created: [] });
  });

  it('leaves plain words unquoted, and single-quotes the rest POSIX-style', () => {
    expect(toolrunCommand('auth', 'login', 'github', '--scope', 'repo read:org')).toBe("toolrun auth login github --scope 'repo read:org'");
    expect(quoteShellWord('demo://resource/static/1')).toBe('demo://resource/static/1');
    expect(quoteShellWord("it's")).toBe(`'it'\\''s'`);
    expect(quoteShellWord('a\nb')).toBe(`$'a\\x0ab'`);
    expect(quoteShellWord('')).toBe(`''`);
  });
});
