import type { Finding, LintReport } from '../lint/lint-types.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { spelledOut } from './format-lint-report.js';

/** Where a finding points in the repository: the snapshot or config file the server came from, and a line in it. */
export type LocateFinding = (finding: Finding) => { uri: string; line: number } | undefined;

/**
 * SARIF 2.1.0 (OASIS), as GitHub code scanning takes it: one run, toolrun as the driver with every
 * rule that fired (its source as helpUri), one result per finding at the file the server came from
 * and the tool's line in it, and the tool as a logical location. Levels map one to one (error,
 * warning, note). A server's texts are spelled out as in the report (spelledOut). Validated against the published schema in test/output/format-lint-sarif.test.ts.
 */
export function formatLintSarif(report: LintReport, options: { version: string; locate: LocateFinding }): string {
  const rules = [...new Map(report.findings.map((finding) => [finding.rule, finding])).values()];
  const ruleIndex = new Map(rules.map((finding, index) => [finding.rule, index]));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolrun',
            version: options.version,
            // No informationUri: optional (the SARIF 2.1.0 schema's toolComponent requires only `name`),
            // and toolrun has no published page: not on the npm registry, where its name is a 404.
            rules: rules.map((finding) => ({
              id: finding.rule,
              shortDescription: { text: finding.rule },
              helpUri: finding.source,
              help: { text: finding.fix },
              defaultConfiguration: { level: finding.severity },
              properties: { target: finding.target },
            })),
          },
        },
        results: report.findings.map((finding) => {
          const location = options.locate(finding);
          return {
            ruleId: finding.rule,
            ruleIndex: ruleIndex.get(finding.rule)!,
            level: finding.severity,
            message: { text: spelledOut(maskSecrets(`${finding.message}. Fix: ${finding.fix}`)) },
            locations: [
              {
                ...(location ? { physicalLocation: { artifactLocation: { uri: location.uri }, region: { startLine: location.line } } } : {}),
                logicalLocations: [
                  { fullyQualifiedName: spelledOut(`${finding.server}${finding.tool === undefined ? '' : `/${finding.tool}`}`), kind: finding.tool === undefined ? 'module' : 'function' },
                ],
              },
            ],
            partialFingerprints: { toolrunFinding: spelledOut(`${finding.rule}|${finding.server}|${finding.tool ?? ''}|${finding.path}`) },
            properties: { target: finding.target, server: spelledOut(finding.server), ...(finding.tool === undefined ? {} : { tool: spelledOut(finding.tool) }), path: spelledOut(finding.path) },
          };
        }),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
