/**
 * Terminal control characters made visible (SPEC §8): a server's tool name, description or stderr
 * line must not clear the user's screen, set the window title (OSC) or rewrite a line (\r). Every
 * escape, C0 and C1 control becomes its `\xNN` / `\uNNNN` spelling; tab and newline stay.
 * `keepColors` leaves plain SGR color codes (ESC[…m) alone: toolrun's own styling uses them, and
 * they cannot move the cursor or talk to the terminal.
 */
export function escapeControls(text: string, keepColors = false): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(keepColors ? CONTROL_OR_SGR : CONTROL_GLOBAL, (match) => (match.length > 1 ? match : spell(match)));
}

// C0 controls except \t and \n, DEL, and C1 controls (U+0080–U+009F: U+009B is a one-character CSI).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const CONTROL_GLOBAL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// An SGR sequence first (kept whole), else one control character (escaped).
const CONTROL_OR_SGR = /\x1b\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function spell(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * One cell of a table: a line break or tab from a server (a mime type, a parameter name) would
 * start a forged row or shift the columns, so they are spelled out too (`\n`, `\t`), as CR and ESC are.
 */
export function escapeTableCell(text: string): string {
  return escapeControls(text, true).replace(/[\n\t]/g, (character) => (character === '\n' ? '\\n' : '\\t'));
}

/**
 * Text from a server inside one of toolrun's one-line messages (a log message, a progress message,
 * a task's id and status): its line breaks spelled out (`\r`, `\n`), so it can neither start a
 * line of its own (a forged status, a CI command: defuse-ci-commands.ts) nor break the message up.
 */
export function oneLine(text: string): string {
  return text.replace(/\r|\n|\u2028|\u2029/g, (character) => (character === '\r' ? '\\r' : character === '\n' ? '\\n' : `\\u${character.charCodeAt(0).toString(16)}`));
}
