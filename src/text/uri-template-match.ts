/**
 * Whether a URI fits an RFC 6570 template loosely: each `{…}` expression stands for any non-empty
 * text, the literal parts must appear in order. Matched left to right with indexOf, in time linear
 * in the URI: a template turned into a regex of `(.+)` groups backtracks quadratically on a hostile
 * URI (a client's resources/read), which would freeze every session of the process.
 */
export function fitsUriTemplate(template: string, uri: string): boolean {
  const parts = template.split(/\{[^}]*\}/);
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (parts.length === 1) return uri === template;
  if (!uri.startsWith(first) || uri.length < first.length + last.length + (parts.length - 1)) return false;
  const end = uri.length - last.length;
  if (!uri.endsWith(last)) return false;
  // Each expression takes at least one character; each middle literal is found after it.
  let position = first.length;
  for (const literal of parts.slice(1, -1)) {
    const found = uri.indexOf(literal, position + 1);
    if (found === -1 || found + literal.length > end - 1) return false;
    position = found + literal.length;
  }
  return position < end;
}
