import type { Style } from './style.js';
import { spelledOut } from './format-lint-report.js';
import { describeCsp } from '../extensions/apps/apps-wire.js';
import type { AppsReport } from '../extensions/apps/apps-report.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * `toolrun mcp apps` for a person: per server, each tool's UI and visibility, each UI resource
 * (MIME type, size, where its CSP is declared), then the findings, errors first, each with the
 * fix and its source, then one summary line. A server's texts are spelled out (spelledOut).
 */
export function formatAppsReport(report: AppsReport, style: Style): string {
  const lines: string[] = [];
  for (const server of report.servers) {
    lines.push(`${style.bold(spelledOut(server.server))}  ${server.extension ? 'declares io.modelcontextprotocol/ui' : style.dim('does not declare io.modelcontextprotocol/ui')}`);
    if (server.tools.length === 0) lines.push(style.dim('  no tool declares a UI (_meta.ui)'));
    for (const tool of server.tools) {
      const visibility = Array.isArray(tool.visibility) ? tool.visibility.map(String).join(', ') : JSON.stringify(tool.visibility);
      lines.push(
        `  ${spelledOut(tool.name)} ${tool.resourceUri === null ? style.dim('(no UI of its own)') : `→ ${spelledOut(tool.resourceUri)}`}  ${style.dim(`visibility: ${spelledOut(visibility)}`)}`,
      );
    }
    for (const resource of server.resources) {
      const facts = [
        resource.readError
          ? style.red(`not readable: ${spelledOut(resource.readError)}`)
          : `${spelledOut(resource.mimeType ?? 'no MIME type')}, ${resource.bytes === null ? 'no content' : `${resource.bytes.toLocaleString('en-US')} bytes`}`,
        resource.listed ? 'listed' : 'not listed',
        resource.csp ? `CSP (${resource.cspDeclaredIn}): ${spelledOut(describeCsp(resource.csp))}` : 'no CSP (the restrictive default)',
        ...(resource.domain ? [`domain ${spelledOut(resource.domain)}`] : []),
      ];
      lines.push(`  ${spelledOut(resource.uri)}  ${style.dim(facts.join(' · '))}`);
    }
    if (server.listError) lines.push(style.yellow(`  resources/list failed: ${spelledOut(server.listError)}`));
  }
  if (report.findings.length > 0) lines.push('');
  for (const finding of report.findings) {
    const mark = finding.severity === 'error' ? style.red('✖ error  ') : finding.severity === 'warning' ? style.yellow('⚠ warning') : style.dim('· note   ');
    const where = `${finding.server}${finding.tool === undefined ? '' : ` · ${finding.tool}`} · ${finding.path}`;
    lines.push(`${mark} ${style.bold(finding.rule)}  ${spelledOut(where)}`);
    lines.push(`          ${spelledOut(finding.message)}`);
    lines.push(style.dim(`          fix: ${spelledOut(finding.fix)} · ${finding.source}`));
  }
  const count = (severity: string) => report.findings.filter((finding) => finding.severity === severity).length;
  const tools = report.servers.reduce((sum, server) => sum + server.tools.length, 0);
  lines.push('');
  lines.push(
    `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('note'), 'note')} · ${plural(tools, 'App tool')} of ${plural(report.servers.length, 'server')}`,
  );
  return lines.join('\n');
}
