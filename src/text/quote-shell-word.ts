import { ALL_CONTROLS } from './control-characters.js';

/**
 * Every command toolrun suggests (`toolrun auth login SERVER --scope '…'`, `toolrun resources read
 * '…'`, `toolrun --host HOST …`) is built here, so that pasting it runs exactly that command and
 * nothing else: a server name, a resource URI or a scope comes from a config or a server, and
 * `list_issues;touch${IFS}x` or `a$(touch x)` must reach toolrun as one word, never run.
 */
export function toolrunCommand(...words: readonly string[]): string {
  return ['toolrun', ...words].map(quoteShellWord).join(' ');
}

// Nothing a POSIX shell, bash or zsh expands: no `~`, glob, brace, `$`, quote or blank; no leading `=`
// (zsh's `=cmd` is the path of cmd) or `#` (a comment).
const PLAIN_WORD = /^[\w@%+:,./-][\w@%+=:,./-]*$/;
const CONTROL = new RegExp(`[${ALL_CONTROLS}]`);
const CONTROL_GLOBAL = new RegExp(`[${ALL_CONTROLS}]`, 'g');

/**
 * One word as a POSIX shell reads it back exactly: a plain word as it is, else in single quotes
 * (where nothing is special; a `'` is closed, escaped and reopened: `'it'\''s'`). A word holding a
 * control character (a line break, ESC, a bidi override) is written `$'…'` with its UTF-8 bytes
 * spelled out (`\x0a`, `\xe2\x80\xae`), which bash, zsh, ksh and POSIX.1-2024 shells read back
 * whatever the locale (`\u202e` is left as it is by bash in the C locale): the suggestion stays on
 * one line and shows what it holds, instead of a line break forging a line or ESC reaching the terminal.
 */
export function quoteShellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  if (!CONTROL.test(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  return `$'${word.replace(/[\\']/g, (character) => `\\${character}`).replace(CONTROL_GLOBAL, spellBytes)}'`;
}

function spellBytes(character: string): string {
  return [...Buffer.from(character, 'utf8')].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
}
