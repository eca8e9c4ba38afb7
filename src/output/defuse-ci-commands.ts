/**
 * What a CI runner would run as a command, made plain text (issue #31). GitHub Actions reads every
 * line of a step's stdout and stderr (actions/runner src/Runner.Common/ActionCommand.cs): a line that
 * starts with `::` once leading whitespace is trimmed (TryParseV2) is a workflow command —
 * `::stop-commands::`, `::add-mask::`, a forged `::error` — and so is `##[NAME]` anywhere in a line
 * (the legacy TryParse, still tried after it). A server's text reaches toolrun's output in many
 * places (an error, a log message, a stderr tail, a tool's description), so the one writer of
 * stdout and stderr (terminal.ts) passes every line through here: the first `:` of a leading `::`
 * becomes `\x3a`, the `[` of `##[` becomes `\x5b`, in the spelling escapeControls uses. The runner
 * compares with the culture's rules (ICU), which skip default-ignorable characters (a soft hyphen,
 * a zero-width space): those count as nothing here too.
 */
export function defuseCiCommands(text: string): string {
  if (!text.includes(':') && !text.includes('#')) return text;
  return text.replace(LEADING_COMMAND, '$1\\x3a').replace(LEGACY_COMMAND, '$1\\x5b');
}

/**
 * The same for one line of JSON (--json): `[` spelled `\u005b` is the same JSON string, so what a
 * script reads is unchanged. A JSON line never starts with `::` (it starts with `{`, `[` or `"`).
 */
export function defuseCiCommandsInJson(json: string): string {
  return json.includes('#') ? json.replace(LEGACY_COMMAND, '$1\\u005b') : json;
}

// Line starts (after \n, or \r and U+2028/9 with /m: more than the runner splits on, never fewer).
const LEADING_COMMAND = /^([\s\p{DI}]*):(?=\p{DI}*:)/gmu;
const LEGACY_COMMAND = /(#\p{DI}*#\p{DI}*)\[/gu;
