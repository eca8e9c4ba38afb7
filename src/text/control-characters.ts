/**
 * The characters a terminal acts on instead of showing, which must never reach the screen as they
 * are, nor a line a person pastes (output/escape-controls.ts spells them out in what toolrun prints,
 * text/quote-shell-word.ts in the commands it suggests): C0 controls (ESC among them), DEL, C1
 * controls (U+009B is a one-character CSI), and the bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069), which reorder what follows them on the line: "Trojan Source"
 * (CVE-2021-42574) hides a name or a command behind them.
 */
export const BIDI_CONTROLS = '\u202a-\u202e\u2066-\u2069';

/** Every control, tab and newline too: what a single word (a name, a shell word) must not hold as it is. */
export const ALL_CONTROLS = `\\x00-\\x1f\\x7f-\\x9f${BIDI_CONTROLS}`;

/** One control character as text: `\xNN` below U+0080, `\uNNNN` from there (as JavaScript and JSON read it). */
export function spellControl(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
