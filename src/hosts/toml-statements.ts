/**
 * A TOML file as a list of its top-level statements with their offsets: table headers and
 * `key = value` lines. Just enough lexing to find where a statement starts and ends (strings of all
 * four kinds, comments, arrays and inline tables spanning lines), so that a value can be replaced
 * without touching the text around it. Values are not interpreted: smol-toml parses the file, and
 * every edit is checked against its reading, so a mistake here refuses an edit, never corrupts a file.
 */
export type TomlStatement =
  { kind: 'table' | 'array-table'; key: string[]; start: number; end: number } | { kind: 'pair'; key: string[]; start: number; end: number; valueStart: number; valueEnd: number };

/** The statements, or undefined when the text is not TOML this lexer follows. `end` is the end of the statement's last line, comment included, newline excluded. */
export function tomlStatements(text: string): TomlStatement[] | undefined {
  const statements: TomlStatement[] = [];
  let at = 0;
  const skipBlank = () => {
    for (;;) {
      while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
      if (text[at] !== '#') return;
      while (at < text.length && text[at] !== '\n') at++;
    }
  };
  // After a statement: spaces, an optional comment, then the end of the line.
  const lineEnd = (): number | undefined => {
    while (text[at] === ' ' || text[at] === '\t') at++;
    if (text[at] === '#') while (at < text.length && text[at] !== '\n') at++;
    if (at < text.length && text[at] !== '\n' && !(text[at] === '\r' && text[at + 1] === '\n')) return undefined;
    if (text[at] === '\r') return at;
    return text[at - 1] === '\r' ? at - 1 : at;
  };
  for (skipBlank(); at < text.length; skipBlank()) {
    const start = at;
    if (text[at] === '[') {
      const double = text[at + 1] === '[';
      at += double ? 2 : 1;
      const key = readKey();
      if (!key || !text.startsWith(double ? ']]' : ']', at)) return undefined;
      at += double ? 2 : 1;
      const end = lineEnd();
      if (end === undefined) return undefined;
      statements.push({ kind: double ? 'array-table' : 'table', key, start, end });
      continue;
    }
    const key = readKey();
    if (!key || text[at] !== '=') return undefined;
    at++;
    while (text[at] === ' ' || text[at] === '\t') at++;
    const valueStart = at;
    if (!skipValue()) return undefined;
    const valueEnd = at;
    const end = lineEnd();
    if (end === undefined || valueEnd === valueStart) return undefined;
    statements.push({ kind: 'pair', key, start, end, valueStart, valueEnd });
  }
  return statements;

  /** A dotted key (`a."b c".'d'`), spaces around the dots allowed; `at` ends after trailing spaces. */
  function readKey(): string[] | undefined {
    const parts: string[] = [];
    for (;;) {
      while (text[at] === ' ' || text[at] === '\t') at++;
      const from = at;
      if (text[at] === '"' || text[at] === "'") {
        if (!skipString()) return undefined;
        const quoted = text.slice(from, at);
        if (quoted.startsWith("'")) parts.push(quoted.slice(1, -1));
        else {
          try {
            parts.push(JSON.parse(quoted) as string);
          } catch {
            return undefined;
          }
        }
      } else {
        while (at < text.length && /[A-Za-z0-9_-]/.test(text[at]!)) at++;
        if (at === from) return undefined;
        parts.push(text.slice(from, at));
      }
      while (text[at] === ' ' || text[at] === '\t') at++;
      if (text[at] !== '.') return parts;
      at++;
    }
  }

  /** Any string, `at` on its opening quote; false when it does not end. */
  function skipString(): boolean {
    const quote = text[at]!;
    const triple = text.startsWith(quote.repeat(3), at);
    at += triple ? 3 : 1;
    while (at < text.length) {
      const char = text[at]!;
      if (char === '\\' && quote === '"') at += 2;
      else if (triple && text.startsWith(quote.repeat(3), at)) {
        at += 3;
        // Up to two more quotes right before the closing three belong to the string ("""a"""" is `a"`).
        for (let extra = 0; extra < 2 && text[at] === quote; extra++) at++;
        return true;
      } else if (!triple && char === quote) {
        at++;
        return true;
      } else if (!triple && char === '\n') return false;
      else at++;
    }
    return false;
  }

  /** A value, `at` on its first character: a string, an array or inline table (to its closing bracket), or a scalar (to the end of its line, trimmed). */
  function skipValue(): boolean {
    const char = text[at];
    if (char === '"' || char === "'") return skipString();
    if (char === '[' || char === '{') {
      let depth = 0;
      while (at < text.length) {
        const c = text[at]!;
        if (c === '"' || c === "'") {
          if (!skipString()) return false;
          continue;
        }
        if (c === '#') {
          while (at < text.length && text[at] !== '\n') at++;
          continue;
        }
        if (c === '[' || c === '{') depth++;
        if (c === ']' || c === '}') depth--;
        at++;
        if (depth === 0) return true;
      }
      return false;
    }
    // A number, boolean or date: up to a comment or the end of the line (a date may hold a space).
    const from = at;
    while (at < text.length && text[at] !== '\n' && text[at] !== '#') at++;
    while (at > from && ' \t\r'.includes(text[at - 1]!)) at--;
    return at > from;
  }
}
