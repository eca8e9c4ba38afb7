import type { Finding, LintReport } from '../lint/lint-types.js';
import type { Style } from './style.js';
import { escapeOneLine } from './escape-controls.js';

/** Findings shown per rule and server; --json, --sarif and --junit have them all. */
const SHOWN_PER_RULE = 5;
const LARGEST_TOOLS = 5;

/**
 * `mcp lint`'s report for a person: the findings, errors first, each with where, what, the fix and
 * the source; then the token count (the largest tools and their costliest part); then a summary line.
 * A server's texts are spelled out (spelledOut): line breaks, controls, bidi and invisible characters.
 */
export function formatLintReport(report: LintReport, style: Style): string {
  const lines: string[] = [];
  const shown = new Map<string, number>();
  const hidden = new Map<string, { finding: Finding; count: number }>();
  for (const finding of report.findings) {
    const group = `${finding.rule}\0${finding.server}`;
    const count = (shown.get(group) ?? 0) + 1;
    shown.set(group, count);
    if (count > SHOWN_PER_RULE) {
      hidden.set(group, { finding, count: count - SHOWN_PER_RULE });
      continue;
    }
    const mark = finding.severity === 'error' ? style.red('✖ error  ') : finding.severity === 'warning' ? style.yellow('⚠ warning') : style.dim('· note   ');
    const where = `${finding.server}${finding.tool === undefined ? '' : ` · ${finding.tool}`} · ${finding.path}`;
    lines.push(`${mark} ${style.bold(finding.rule)}  ${spelledOut(where)}`);
    lines.push(`          ${spelledOut(finding.message)}`);
    lines.push(style.dim(`          fix: ${spelledOut(finding.fix)} · ${finding.source}`));
  }
  for (const { finding, count } of hidden.values()) lines.push(style.dim(`          … ${count} more ${finding.rule} on ${spelledOut(finding.server)} (--json has them all)`));
  if (report.tokens) {
    const { tokens } = report;
    if (lines.length > 0) lines.push('');
    const how = tokens.exact ? `${tokens.encoding}, exact for OpenAI` : `${tokens.encoding}; an estimate for ${tokens.format}, whose tokenizer is not published`;
    lines.push(`${style.bold(thousands(tokens.total))} tokens of tool definitions (${how})`);
    if (tokens.servers.length > 1) for (const server of tokens.servers) lines.push(`  ${spelledOut(server.server)}: ${thousands(server.tokens)} (${server.tools} tools)`);
    const largest = tokens.tools
      .slice(0, LARGEST_TOOLS)
      .map(
        (tool) =>
          `${spelledOut(tokens.servers.length > 1 ? `${tool.server}:${tool.tool}` : tool.tool)} ${thousands(tool.tokens)} (${spelledOut(tool.costliest.part)} ${thousands(tool.costliest.tokens)})`,
      );
    if (largest.length > 0) lines.push(`  largest: ${largest.join(', ')}`);
  }
  const count = (severity: Finding['severity']) => report.findings.filter((finding) => finding.severity === severity).length;
  const tools = report.servers.reduce((sum, server) => sum + server.tools, 0);
  const targets = report.targets.map((target) => `${target.name}@${target.version}`).join(', ');
  if (lines.length > 0) lines.push('');
  lines.push(
    `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('note'), 'note')} · ${plural(tools, 'tool')} of ${plural(report.servers.length, 'server')} · ${targets}`,
  );
  return lines.join('\n');
}

/**
 * A server's text as every lint output prints it (docs/lint.md): on one line, its line breaks
 * (`\n`, `\r`, U+2028, U+2029), controls and bidi controls spelled out, and the invisible characters
 * too, so a tool named `x\n✔ lint passed` cannot print a line of its own (issue 48 item 8) in the
 * report, SARIF, JUnit or an annotation, nor reorder one.
 */
export function spelledOut(text: string): string {
  return visible(escapeOneLine(text)).replace(/[\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16)}`);
}

/** Zero-width, format and tag characters as `\uXXXX`: they would hide in a terminal and in a bug report. */
function visible(text: string): string {
  return text.replace(/[\u200b-\u200f\u2060-\u2064\ufeff\u00ad\u180e\u061c]|[\u{e0000}-\u{e007f}]/gu, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}

function thousands(value: number): string {
  return value.toLocaleString('en-US');
}

function plural(count: number, noun: string): string {
  return `${thousands(count)} ${noun}${count === 1 ? '' : 's'}`;
}
