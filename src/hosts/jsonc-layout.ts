import type { Node } from 'jsonc-parser';

/** How a JSON(C) file is laid out, so text added to it looks as if its author had written it. */
export interface JsonLayout {
  /** One level of indentation: a tab, or some spaces. */
  indent: string;
  /** The file's line ending: `\r\n` when it has any, else `\n`. */
  eol: string;
}

/** Two spaces: what `JSON.stringify(value, null, 2)` and most editors write, for a file that shows none. */
const DEFAULT_INDENT = '  ';

/**
 * The file's indentation, read from its own members: the first property (outermost first) whose key
 * begins its line gives its leading whitespace, divided by its depth. Lines inside strings or
 * comments never count, since only the parse tree's keys are looked at.
 */
export function detectLayout(text: string, root: Node | undefined): JsonLayout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let level: Array<{ node: Node; depth: number }> = root ? [{ node: root, depth: 0 }] : [];
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { node, depth } of level) {
      for (const child of node.children ?? []) {
        if (child.type !== 'property') {
          next.push({ node: child, depth: depth + 1 });
          continue;
        }
        const whitespace = leadingWhitespace(text, child.offset);
        if (whitespace !== undefined && whitespace.length > 0) {
          if (whitespace.includes('\t')) return { indent: '\t', eol };
          if (whitespace.length % (depth + 1) === 0) return { indent: ' '.repeat(whitespace.length / (depth + 1)), eol };
        }
        const value = child.children?.[1];
        if (value) next.push({ node: value, depth: depth + 1 });
      }
    }
    level = next;
  }
  return { indent: DEFAULT_INDENT, eol };
}

/**
 * The whitespace between the start of `offset`'s line and `offset`, when nothing else stands there
 * (the token begins its line); undefined otherwise.
 */
export function leadingWhitespace(text: string, offset: number): string | undefined {
  const start = lineStart(text, offset);
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** The offset at which `offset`'s line begins. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The leading whitespace of `offset`'s line, whatever follows it. */
export function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/** `value` as JSON in the file's layout, its lines after the first indented by `base` (where it is placed). */
export function formatJson(value: unknown, layout: JsonLayout, base: string): string {
  // JSON.stringify escapes line breaks inside strings, so every real one here is between tokens.
  return JSON.stringify(value, null, layout.indent).replaceAll('\n', `${layout.eol}${base}`);
}
