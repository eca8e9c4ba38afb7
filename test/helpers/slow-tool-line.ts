/**
 * The warning a tool that took longer than `slowToolMs` gets on stderr (src/executor/tool-executor.ts):
 * whether it appears depends on how busy the machine is, not on what a test checks. A test comparing
 * the whole of stderr with the default threshold drops it first; one that writes its own config can
 * set `slowToolMs` high instead.
 */
export const SLOW_TOOL_LINE = /^⚠ Slow tool: .+ took \d+ ms \(slowToolMs: \d+\)$/;

/** `stderr` without the slow-tool warning lines, every other line kept as it was, in order. */
export function withoutSlowToolLine(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !SLOW_TOOL_LINE.test(line))
    .join('\n');
}
