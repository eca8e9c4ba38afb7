import type { LockChange, LockCheck } from '../lock/check-lock.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { escapeData, escapeProperty } from './format-github-annotations.js';
import { spelledOut } from './format-lint-report.js';
import { attributes, text } from './junit-xml.js';

// `lock --check`'s CI outputs (SPEC §24), shaped as `mcp lint` gives them (format-lint-junit.ts,
// format-lint-sarif.ts, format-lint-annotations.ts): JUnit, SARIF 2.1.0, and GitHub annotations.

interface Place {
  /** The lock file, relative to the repository's folder, as SARIF and annotations point at it. */
  uri: string;
  /** The line of a server's entry in the lock (1 when it has none). */
  lineOf: (server: string) => number;
}

/** The Actions UI shows ten annotations of each kind per step. */
const MAX_ANNOTATIONS = 10;

const UNPINNED_REASON = (server: string) => `not pinned in the lock: pin it with: toolrun lock --update ${server}`;

/** One testsuite, one testcase per server checked or unpinned; a server's case fails on any of its changes. */
export function lockCheckJunit(check: LockCheck, unpinned: string[], lockName: string, options: { hostname?: string; startedAt?: Date } = {}): string {
  const servers = [...new Set([...check.changes.map((change) => change.server), ...unpinned])];
  const failures = new Map<string, string[]>(servers.map((server) => [server, []]));
  for (const change of check.changes) failures.get(change.server)!.push(line(change));
  for (const server of unpinned) failures.get(server)!.push(UNPINNED_REASON(server));
  const cases = [...failures].map(([server, lines]) => {
    const open = `    <testcase${attributes({ classname: 'toolrun.lock', name: spelledOut(server), time: '0.000' })}`;
    const failure = `<failure${attributes({ message: spelledOut(`${lines.length} change${lines.length === 1 ? '' : 's'} since ${lockName}`), type: 'lock' })}>${text(lines.join('\n'))}</failure>`;
    return `${open}>\n      ${failure}\n    </testcase>`;
  });
  const suite = attributes({
    name: 'toolrun.lock',
    package: 'toolrun.lock',
    id: '0',
    hostname: options.hostname || 'localhost',
    timestamp: (options.startedAt ?? new Date()).toISOString().slice(0, 19),
    tests: String(Math.max(cases.length, 1)),
    failures: String(cases.length),
    errors: '0',
    skipped: '0',
    time: '0.000',
  });
  const body = cases.length > 0 ? cases : [`    <testcase${attributes({ classname: 'toolrun.lock', name: 'every pinned server', time: '0.000' })}/>`];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    `  <testsuite${suite}>`,
    '    <properties>',
    '    </properties>',
    ...body,
    '    <system-out></system-out>',
    '    <system-err></system-err>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** SARIF 2.1.0: one result per change (rule `lock/WHAT-KIND`), at the server's entry in the lock file. */
export function lockCheckSarif(check: LockCheck, unpinned: string[], options: Place & { version: string }): string {
  const results = [
    ...check.changes.map((change) => ({ rule: `lock/${change.what}-${change.kind}`, server: change.server, path: change.path, level: change.breaking ? 'error' : 'warning', message: change.reason })),
    ...unpinned.map((server) => ({ rule: 'lock/unpinned-server', server, path: `${server}/`, level: 'error', message: UNPINNED_REASON(server) })),
  ];
  const rules = [...new Set(results.map((result) => result.rule))];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'toolrun', version: options.version, rules: rules.map((id) => ({ id, shortDescription: { text: id } })) } },
        results: results.map((result) => ({
          ruleId: result.rule,
          ruleIndex: rules.indexOf(result.rule),
          level: result.level,
          message: { text: spelledOut(maskSecrets(`${result.path} — ${result.message}`)) },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: options.uri }, region: { startLine: options.lineOf(result.server) } },
              logicalLocations: [{ fullyQualifiedName: spelledOut(result.path), kind: 'member' }],
            },
          ],
          partialFingerprints: { toolrunLockChange: spelledOut(`${result.rule}|${result.path}`) },
        })),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** In GitHub Actions: `::error file=toolrun.lock,line=N` per breaking change or unpinned server, `::warning` per other change. */
export function lockCheckAnnotations(check: LockCheck, unpinned: string[], place: Place): string[] {
  const annotation = (kind: 'error' | 'warning', server: string, message: string) =>
    `::${kind} ${[`file=${escapeProperty(place.uri)}`, `line=${place.lineOf(server)}`, `title=${escapeProperty(clean(`toolrun lock: ${server}`))}`].join(',')}::${escapeData(clean(message))}`;
  const errors = [
    ...unpinned.map((server) => annotation('error', server, UNPINNED_REASON(server))),
    ...check.changes.filter((change) => change.breaking).map((change) => annotation('error', change.server, line(change))),
  ];
  const warnings = check.changes.filter((change) => !change.breaking).map((change) => annotation('warning', change.server, line(change)));
  return [...errors.slice(0, MAX_ANNOTATIONS), ...warnings.slice(0, MAX_ANNOTATIONS)];
}

function line(change: LockChange): string {
  return `${change.path} — ${change.reason}`;
}

function clean(value: string): string {
  return spelledOut(maskSecrets(value));
}
