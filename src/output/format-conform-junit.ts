import type { CheckEvidence, CheckResult, ConformReport } from '../conform/conform-types.js';
import { attributes, seconds, text } from './junit-xml.js';
import { compactJson, profileName } from './format-conform-report.js';

export interface JunitOptions {
  /** When the run started (the testsuite's timestamp); now by default. */
  startedAt?: Date;
  /** The machine it ran on; `localhost` when not known (the Ant schema requires one). */
  hostname?: string;
}

/**
 * `mcp conform --junit FILE` (SPEC §16): one <testsuite> per run, one <testcase> per check.
 *
 * The document stays inside both schemas CI tools check JUnit against — Jenkins' junit-10.xsd
 * (xunit-plugin) and the Apache Ant schema (windyroad JUnit.xsd, the one GitLab and Atlassian name),
 * which is the stricter: it wants the suite's <properties> first and its <system-out>/<system-err>
 * last, no attribute on <testsuites>, `package`, `id`, `hostname` and a timestamp without a zone, and allows a testcase nothing but
 * one <failure>, <error> or <skipped>. So a warning cannot sit in its testcase's own <system-out>:
 * its check passes (warnings do not fail a run) and the warning goes to a suite <property> named
 * after the check and to the suite's <system-out>, with its evidence.
 */
export function formatConformJunit(report: ConformReport, options: JunitOptions = {}): string {
  const profile = profileName(report);
  const cases = report.unreachable === undefined ? report.checks.map(formatTestcase) : [formatUnreachable(report)];
  const failures = report.unreachable === undefined ? report.summary.fail : 0;
  const errors = report.unreachable === undefined ? 0 : 1;
  const tests = report.unreachable === undefined ? report.checks.length : 1;
  const skipped = report.unreachable === undefined ? report.summary.skip : 0;
  const time = seconds(report.durationMs);
  const suite = attributes({
    name: `${profile} ${report.server}`,
    package: `mcp.conform.${profile}`,
    id: '0',
    hostname: options.hostname || 'localhost',
    timestamp: (options.startedAt ?? new Date()).toISOString().slice(0, 19),
    tests: String(tests),
    failures: String(failures),
    errors: String(errors),
    skipped: String(skipped),
    time,
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // No attributes here: the Ant schema allows none on <testsuites>; the one suite carries the counts.
    '<testsuites>',
    `  <testsuite${suite}>`,
    '    <properties>',
    ...suiteProperties(report).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    '    </properties>',
    ...cases,
    `    <system-out>${text(warningsText(report))}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function formatTestcase(result: CheckResult): string {
  const head = `    <testcase${attributes({ classname: classname(result.id), name: `${result.id}: ${result.title}`, time: seconds(result.durationMs) })}`;
  if (result.verdict === 'fail') {
    const body = [result.message, `spec: ${result.section}`, ...result.evidence.map(evidenceText)].join('\n');
    return `${head}>\n      <failure${attributes({ message: result.message, type: result.section })}>${text(body)}</failure>\n    </testcase>`;
  }
  if (result.verdict === 'skip') return `${head}>\n      <skipped${attributes({ message: result.message })}/>\n    </testcase>`;
  return `${head}/>`;
}

/** An unreachable server ran no check: one errored testcase says why, so CI shows red with the reason. */
function formatUnreachable(report: ConformReport): string {
  const reason = report.unreachable ?? '';
  const head = attributes({ classname: 'mcp.conform.connect', name: `connect: ${report.server} can be reached`, time: seconds(report.durationMs) });
  return `    <testcase${head}>\n      <error${attributes({ message: reason, type: 'unreachable' })}>${text(reason)}</error>\n    </testcase>`;
}

/** `tools.input-schema` → `mcp.conform.tools`: the id's first part groups checks the way CI tools group classes. */
function classname(id: string): string {
  return `mcp.conform.${id.split('.')[0] || 'checks'}`;
}

function suiteProperties(report: ConformReport): Array<[string, string]> {
  const properties: Array<[string, string]> = [
    ['profile', profileName(report)],
    ['server', report.server],
    ['transport', report.transport],
  ];
  if (report.protocolVersion) properties.push(['protocolVersion', report.protocolVersion]);
  for (const call of report.calls) properties.push([`call.${call.tool}`, `${compactJson(call.arguments)}${call.generated ? ' (generated from the schema)' : ''}`]);
  for (const result of report.checks) if (result.verdict === 'warn') properties.push([`warning.${result.id}`, result.message]);
  return properties;
}

function warningsText(report: ConformReport): string {
  const warned = report.checks.filter((result) => result.verdict === 'warn');
  return warned.map((result) => [`warning ${result.id}: ${result.message}`, ...result.evidence.map(evidenceText)].join('\n')).join('\n\n');
}

function evidenceText(evidence: CheckEvidence): string {
  const lines = [`- ${evidence.detail}`];
  if (evidence.path !== undefined) lines.push(`  at ${evidence.path}`);
  if (evidence.line !== undefined) lines.push(`  stdout line ${evidence.line}`);
  if (evidence.frame !== undefined) lines.push(`  ${evidence.direction ?? 'frame'}: ${compactJson(evidence.frame)}`);
  return lines.join('\n');
}
