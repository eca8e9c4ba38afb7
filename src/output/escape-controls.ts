import { BIDI_CONTROLS, spellControl } from '../text/control-characters.js';

/**
 * Terminal control characters made visible (SPEC §8): a server's tool name, description or stderr
 * line must not clear the user's screen, set the window title (OSC), rewrite a line (\r) or reorder
 * it (a bidi override: "Trojan Source"). Every escape, C0 and C1 control and bidi control becomes its
 * `\xNN` / `\uNNNN` spelling; tab and newline stay. `keepColors` leaves plain SGR color codes (ESC[…m)
 * alone: toolrun's own styling uses them, and they cannot move the cursor or talk to the terminal.
 */
export function escapeControls(text: string, keepColors = false): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(keepColors ? CONTROL_OR_SGR : CONTROL_GLOBAL, (match) => (match.length > 1 ? match : spellControl(match)));
}

// C0 controls except \t and \n, DEL, C1 controls (U+0080–U+009F: U+009B is a one-character CSI), bidi controls.
const CONTROLS = `\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${BIDI_CONTROLS}`;
const CONTROL = new RegExp(`[${CONTROLS}]`);
const CONTROL_GLOBAL = new RegExp(`[${CONTROLS}]`, 'g');
// An SGR sequence first (kept whole), else one control character (escaped).
const CONTROL_OR_SGR = new RegExp(`\\x1b\\[[0-9;]*m|[${CONTROLS}]`, 'g');

/**
 * Text that must stay on one line: a warning, or a name inside a message. A line break in a server
 * name (`b\n⚠ …`) would start a line that looks like toolrun's own, so it is spelled `\n` too.
 */
export function escapeOneLine(text: string, keepColors = false): string {
  return escapeControls(text, keepColors).replace(/\n/g, '\\n');
}

/**
 * One cell of a table: a line break or tab from a server (a mime type, a parameter name) would
 * start a forged row or shift the columns, so they are spelled out too (`\n`, `\t`), as CR and ESC are.
 */
export function escapeTableCell(text: string): string {
  return escapeOneLine(text, true).replace(/\t/g, '\\t');
}

/**
 * Text from a server inside one of toolrun's one-line messages (a log message, a progress message,
 * a task's id and status): its line breaks spelled out (`\r`, `\n`), so it can neither start a
 * line of its own (a forged status, a CI command: defuse-ci-commands.ts) nor break the message up.
 */
export function oneLine(text: string): string {
  return text.replace(/\r|\n|\u2028|\u2029/g, (character) => (character === '\r' ? '\\r' : character === '\n' ? '\\n' : `\\u${character.charCodeAt(0).toString(16)}`));
}
