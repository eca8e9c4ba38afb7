import { maskSecrets } from '../secrets/mask-secrets.js';
import { entryFailed, type VerifyEntry, type VerifyFinding, type VerifyReport } from '../verify/verify-types.js';
import { escapeData, escapeProperty } from './format-github-annotations.js';
import { spelledOut } from './format-lint-report.js';
import { attributes, text } from './junit-xml.js';

// `mcp verify`'s CI outputs, shaped as `mcp lint` and `lock --check` give theirs: JUnit (a testsuite
// per file, a testcase per entry and one for the file itself), SARIF 2.1.0 (a result per finding and
// per failed launch, at the file), GitHub annotations.

/** The Actions UI shows ten annotations of each kind per step. */
const MAX_ANNOTATIONS = 10;

export function verifyJunit(reports: VerifyReport[], options: { hostname?: string; startedAt?: Date } = {}): string {
  const suites = reports.map((report, index) => {
    const cases = [fileCase(report), ...report.entries.map((entry) => entryCase(report, entry))];
    const failures = cases.filter((testcase) => testcase.includes('<failure')).length;
    const suite = attributes({
      name: spelledOut(report.file),
      package: 'toolrun.verify',
      id: String(index),
      hostname: options.hostname || 'localhost',
      timestamp: (options.startedAt ?? new Date()).toISOString().slice(0, 19),
      tests: String(cases.length),
      failures: String(failures),
      errors: '0',
      skipped: '0',
      time: seconds(report.entries.reduce((sum, entry) => sum + (entry.launched?.durationMs ?? 0), 0)),
    });
    return [`  <testsuite${suite}>`, '    <properties>', '    </properties>', ...cases, '    <system-out></system-out>', '    <system-err></system-err>', '  </testsuite>'].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...suites, '</testsuites>', ''].join('\n');
}

function fileCase(report: VerifyReport): string {
  const errors = report.findings.filter((finding) => finding.level === 'error');
  return testcase(
    report.file,
    `${report.format} (the file)`,
    0,
    errors.length === 0 ? undefined : { message: `${errors.length} error${errors.length === 1 ? '' : 's'} in the file`, lines: errors.map(findingText) },
  );
}

function entryCase(report: VerifyReport, entry: VerifyEntry): string {
  if (!entryFailed(entry)) return testcase(report.file, `${entry.id} ${entry.label}`, entry.launched?.durationMs ?? 0);
  const lines = entry.findings.filter((finding) => finding.level === 'error').map(findingText);
  if (entry.launched && !entry.launched.handshake) lines.push(`launch failed: ${entry.launched.error ?? 'no answer to initialize'}`, ...(entry.launched.stderrTail ?? []));
  if ((entry.launched?.conform?.failed ?? 0) > 0) lines.push(`mcp conform: ${entry.launched!.conform!.failed} check(s) failed`);
  return testcase(report.file, `${entry.id} ${entry.label}`, entry.launched?.durationMs ?? 0, { message: lines[0] ?? 'failed', lines });
}

function testcase(file: string, name: string, durationMs: number, failure?: { message: string; lines: string[] }): string {
  const open = `    <testcase${attributes({ classname: spelledOut(file), name: spelledOut(name), time: seconds(durationMs) })}`;
  if (!failure) return `${open}/>`;
  const body = `<failure${attributes({ message: clean(failure.message), type: 'verify' })}>${text(failure.lines.map(clean).join('\n'))}</failure>`;
  return `${open}>\n      ${body}\n    </testcase>`;
}

/** SARIF 2.1.0: one result per finding (rule = the finding's rule) and per failed launch (`launch/failed`), at the file checked. */
export function verifySarif(reports: VerifyReport[], options: { version: string; uriOf: (file: string) => string }): string {
  const results = reports.flatMap((report) => [
    ...report.findings.map((finding) => ({ report, finding })),
    ...report.entries.flatMap((entry) => [
      ...entry.findings.map((finding) => ({ report, finding: { ...finding, path: finding.path || entry.id } })),
      ...(entry.launched && !entry.launched.handshake
        ? [{ report, finding: { level: 'error', rule: 'launch/failed', path: entry.id, message: `launch failed: ${entry.launched.error ?? 'no answer to initialize'}` } as VerifyFinding }]
        : []),
    ]),
  ]);
  const rules = [...new Set(results.map(({ finding }) => finding.rule))];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'toolrun', version: options.version, rules: rules.map((id) => ({ id, shortDescription: { text: id } })) } },
        results: results.map(({ report, finding }) => ({
          ruleId: finding.rule,
          ruleIndex: rules.indexOf(finding.rule),
          level: finding.level === 'note' ? 'note' : finding.level,
          message: { text: clean(findingText(finding)) },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: options.uriOf(report.file) }, region: { startLine: 1 } },
              logicalLocations: [{ fullyQualifiedName: spelledOut(finding.path || report.file), kind: 'member' }],
            },
          ],
          partialFingerprints: { toolrunVerifyFinding: spelledOut(`${finding.rule}|${finding.path}`) },
        })),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** In GitHub Actions: `::error` per error finding and failed launch, `::warning` per warning, at the file. */
export function verifyAnnotations(reports: VerifyReport[], uriOf: (file: string) => string): string[] {
  const annotation = (kind: 'error' | 'warning', report: VerifyReport, message: string) =>
    `::${kind} ${[`file=${escapeProperty(uriOf(report.file))}`, 'line=1', `title=${escapeProperty(clean(`toolrun mcp verify: ${report.file}`))}`].join(',')}::${escapeData(clean(message))}`;
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const report of reports) {
    const findings = [...report.findings, ...report.entries.flatMap((entry) => entry.findings.map((finding) => ({ ...finding, path: finding.path || entry.id })))];
    for (const finding of findings) {
      if (finding.level === 'error') errors.push(annotation('error', report, findingText(finding)));
      if (finding.level === 'warning') warnings.push(annotation('warning', report, findingText(finding)));
    }
    for (const entry of report.entries)
      if (entry.launched && !entry.launched.handshake) errors.push(annotation('error', report, `${entry.id}: launch failed: ${entry.launched.error ?? 'no answer to initialize'}`));
  }
  return [...errors.slice(0, MAX_ANNOTATIONS), ...warnings.slice(0, MAX_ANNOTATIONS)];
}

function findingText(finding: VerifyFinding): string {
  return `${finding.path ? `${finding.path}: ` : ''}${finding.message}`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function clean(value: string): string {
  return spelledOut(maskSecrets(value));
}
