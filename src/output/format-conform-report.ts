import type { CheckEvidence, CheckResult, ConformReport, Verdict } from '../conform/conform-types.js';
import { escapeTableCell } from './escape-controls.js';
import type { Style } from './style.js';
import { maskSecrets, maskThenCut } from '../secrets/mask-secrets.js';

const MARKS: Record<Verdict, (style: Style) => string> = {
  pass: (style) => style.green('✔'),
  fail: (style) => style.red('✘'),
  warn: (style) => style.yellow('!'),
  skip: (style) => style.dim('-'),
};

/** The table fits a 100-column terminal; ids longer than this push their own row only. */
const WIDTH = 100;
const MAX_ID_COLUMN = 28;
/** Enough of a frame to recognise it; the whole frame is in --json and --junit. */
const FRAME_CHARS = 160;
/** A server with 500 invalid frames must not bury the other rows: the rest are in --json / --junit. */
const MAX_EVIDENCE = 5;

/**
 * The terminal table of `mcp conform` (SPEC §16): a header, one row per check (mark, id, message),
 * the evidence of failed and warned checks indented under them, and the counts. Every string that
 * may come from the server is spelled out by escapeTableCell, so it can neither forge a row (a
 * newline) nor talk to the terminal (ESC, C1).
 */
export function formatConformReport(report: ConformReport, style: Style): string {
  const server = escapeTableCell(report.server);
  if (report.unreachable !== undefined) {
    return `${MARKS.fail(style)} ${style.bold(server)} (${report.transport}) unreachable: ${escapeTableCell(report.unreachable)}`;
  }
  const about = [report.transport, report.protocolVersion, `profile ${profileName(report)}`].filter(Boolean).map((part) => escapeTableCell(part!));
  const lines = [style.bold(`toolrun mcp conform ${server}`) + style.dim(` (${about.join(', ')})`)];
  const idColumn = Math.min(MAX_ID_COLUMN, Math.max(0, ...report.checks.map((result) => result.id.length)));
  for (const result of report.checks) {
    lines.push(formatRow(result, idColumn, style));
    if (result.verdict === 'fail' || result.verdict === 'warn') lines.push(...formatEvidence(result.evidence, style));
  }
  lines.push(formatConformSummary(report, style));
  return lines.join('\n');
}

/** `toolrun@1`: the name people pass to --profile. */
export function profileName(report: Pick<ConformReport, 'profile'>): string {
  return `${report.profile.name}@${report.profile.version}`;
}

/** `12 passed, 1 failed, 2 warnings, 3 skipped in 1.4 s`, red when a check failed. */
export function formatConformSummary(report: ConformReport, style: Style): string {
  const { pass, fail, warn, skip } = report.summary;
  const text = `${pass} passed, ${fail} failed, ${warn} warning${warn === 1 ? '' : 's'}, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s`;
  return fail > 0 ? style.red(text) : style.green(text);
}

function formatRow(result: CheckResult, idColumn: number, style: Style): string {
  const id = escapeTableCell(result.id).padEnd(idColumn);
  const room = Math.max(40, WIDTH - 2 - id.length - 2);
  const message = cutCell(result.message, room);
  return `${MARKS[result.verdict](style)} ${id}  ${result.verdict === 'skip' ? style.dim(message) : message}`;
}

function formatEvidence(evidence: CheckEvidence[], style: Style): string[] {
  const lines: string[] = [];
  for (const item of evidence.slice(0, MAX_EVIDENCE)) {
    lines.push(`    ${escapeTableCell(item.detail)}`);
    const where = [item.path === undefined ? undefined : `at ${escapeTableCell(item.path)}`, item.line === undefined ? undefined : `stdout line ${item.line}`].filter(Boolean);
    if (where.length > 0) lines.push(style.dim(`      ${where.join(', ')}`));
    if (item.frame !== undefined) lines.push(style.dim(`      ${item.direction ?? 'frame'} ${cutCell(compactJson(item.frame), FRAME_CHARS)}`));
  }
  if (evidence.length > MAX_EVIDENCE) lines.push(style.dim(`    … ${evidence.length - MAX_EVIDENCE} more (--json or --junit has them all)`));
  return lines;
}

/** One line of JSON; a value JSON cannot hold (a cycle, a BigInt) is named rather than thrown on. */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[a value JSON cannot show]';
  }
}

/** A cell of at most `width` characters: masked and escaped before it is cut (maskThenCut), never after. */
function cutCell(text: string, width: number): string {
  return maskThenCut(text, width, '…', (whole) => escapeTableCell(maskSecrets(whole)));
}
