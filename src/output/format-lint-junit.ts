import type { Finding, LintReport, ServerTools } from '../lint/lint-types.js';
import { spelledOut } from './format-lint-report.js';
import { attributes, text } from './junit-xml.js';

/**
 * `mcp lint --junit`: one testsuite per target (and `mcp` for the rules of every target), one
 * testcase per tool linted (`SERVER/TOOL`, as `--help` promises, so a CI dashboard counts every tool
 * and sees one turn from passing to failing), and one per server or for the whole set (`*`) only when
 * a finding is about it (too many tools, over a budget); a testcase fails when it has an error-level
 * finding. The `budget` suite, when there is one, holds only its set-wide cases. Inside both schemas
 * conform's JUnit keeps to (see format-conform-junit.ts): <properties> first, a testcase holds only
 * its <failure>, so warnings and notes go to the suite's <system-out>, and `package`, `id`,
 * `hostname` and `timestamp` are set. A server's texts are spelled out as in the report (spelledOut).
 */
export function formatLintJunit(report: LintReport, tools: ServerTools[], options: { hostname?: string; startedAt?: Date } = {}): string {
  const suites = [...report.targets.map((target) => target.name), 'mcp', 'budget'].map((target, index) => {
    const findings = report.findings.filter((finding) => finding.target === target);
    if (target === 'budget' && findings.length === 0) return '';
    const cases = new Map<string, Finding[]>();
    if (target !== 'budget') for (const { server, tools: listed } of tools) for (const tool of listed) cases.set(`${server}/${String(tool.name)}`, []);
    for (const finding of findings) {
      const key = finding.tool === undefined ? finding.server : `${finding.server}/${finding.tool}`;
      cases.set(key, [...(cases.get(key) ?? []), finding]);
    }
    const failures = [...cases.values()].filter((list) => list.some((finding) => finding.severity === 'error')).length;
    const testcases = [...cases].map(([name, list]) => {
      const errors = list.filter((finding) => finding.severity === 'error');
      const open = `    <testcase${attributes({ classname: `toolrun.lint.${target}`, name: spelledOut(name), time: '0.000' })}`;
      if (errors.length === 0) return `${open}/>`;
      const failure = `<failure${attributes({ message: spelledOut(errors.map((finding) => `${finding.rule} ${finding.path}: ${finding.message}`).join('; ')), type: errors[0]!.rule })}>${text(errors.map(describe).join('\n'))}</failure>`;
      return `${open}>\n      ${failure}\n    </testcase>`;
    });
    const others = findings.filter((finding) => finding.severity !== 'error');
    const suite = attributes({
      name: target,
      package: `mcp.lint.${target}`,
      id: String(index),
      hostname: options.hostname || 'localhost',
      timestamp: (options.startedAt ?? new Date()).toISOString().slice(0, 19),
      tests: String(cases.size),
      failures: String(failures),
      errors: '0',
      skipped: '0',
      time: '0.000',
    });
    return [
      `  <testsuite${suite}>`,
      '    <properties>',
      '    </properties>',
      ...testcases,
      `    <system-out>${text(others.map(describe).join('\n'))}</system-out>`,
      '    <system-err></system-err>',
      '  </testsuite>',
    ].join('\n');
  });
  // No attributes on <testsuites>: the Ant schema allows none.
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...suites.filter(Boolean), '</testsuites>', ''].join('\n');
}

function describe(finding: Finding): string {
  return `${finding.severity} ${finding.rule} ${spelledOut(finding.path)}: ${spelledOut(finding.message)}\n  fix: ${spelledOut(finding.fix)}\n  source: ${finding.source}`;
}
