/**
 * The longest line the shell takes. A call's arguments beyond this belong in a file
 * (`exec --args @file.json`); a longer line is almost always a paste gone wrong, and echoing it,
 * keeping it in history or sending it would only make the terminal crawl.
 */
export const MAX_SHELL_LINE_BYTES = 64 * 1024;

/** Why the shell refuses a line (one line for the person), or undefined when it takes it. */
export function refuseShellLine(line: string, realBytes?: number): string | undefined {
  if (Buffer.byteLength(line, 'utf8') <= MAX_SHELL_LINE_BYTES) return undefined;
  // A terminal's line arrives cut (line-limit.ts): its real size is known there.
  const bytes = Math.max(realBytes ?? 0, Buffer.byteLength(line, 'utf8'));
  return `line refused: ${bytes.toLocaleString('en-US')} bytes, the shell takes lines up to ${MAX_SHELL_LINE_BYTES / 1024} KB (give big arguments from a file: toolrun exec TOOL --args @file.json); not run, not kept in history`;
}
