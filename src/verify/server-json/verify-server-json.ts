/**
 * `mcp verify` for a server.json: parse, validate against the schema it names, apply the publisher's
 * rules, then compose each package and remote as VS Code would. Pure: text in, report out.
 */
import { rememberSecret } from '../../secrets/mask-secrets.js';
import type { VerifyEntry, VerifyFinding, VerifyReport } from '../verify-types.js';
import { composePackageLaunch, composeRemoteLaunch } from './compose-launch.js';
import { parseJsonWithPosition } from './parse-json-with-position.js';
import { checkPublisherRules } from './publisher-rules.js';
import { camelCaseServerJson, objectsIn, stringOrUndefined, type ServerJson, type ServerJsonPackage, type ServerJsonTransport } from './server-json-shape.js';
import { validateServerJson } from './validate-server-json.js';

export interface VerifyServerJsonOptions {
  /** `--input NAME=VALUE`: answers to what a host would ask the user for. */
  inputs: Record<string, string>;
}

export function verifyServerJson(text: string, file: string, options: VerifyServerJsonOptions): VerifyReport {
  const parsed = parseJsonWithPosition(text);
  if (!parsed.ok) {
    return {
      file,
      format: 'server.json',
      findings: [{ level: 'error', rule: 'server-json/not-json', path: '', message: `${file}:${parsed.line}:${parsed.column}: ${parsed.message}: fix the JSON there` }],
      entries: [],
    };
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return {
      file,
      format: 'server.json',
      findings: [
        {
          level: 'error',
          rule: 'server-json/not-an-object',
          path: '',
          message: `${file} holds ${Array.isArray(parsed.value) ? 'an array' : `a ${typeof parsed.value}`}, not a server.json object: give the file with {"name": …, "packages": […]}`,
        },
      ],
      entries: [],
    };
  }
  const validation = validateServerJson(parsed.value);
  // The rules and the composition read camelCase; a 2025-07-09 file is renamed first.
  const server = (validation.date === '2025-07-09' ? camelCaseServerJson(parsed.value) : parsed.value) as ServerJson;
  const findings: VerifyFinding[] = [...validation.findings];
  const entries: VerifyEntry[] = [];
  const packages = objectsIn<ServerJsonPackage>(server.packages);
  const remotes = objectsIn<ServerJsonTransport>(server.remotes);
  const composed = [...packages.map((pkg, index) => composePackageLaunch(pkg, index, options)), ...remotes.map((remote, index) => composeRemoteLaunch(remote, index, options))];
  for (const result of composed) {
    if (!result) continue;
    // Values marked isSecret stay in the launch (it must run); every masked output hides them.
    for (const secret of result.secretValues) rememberSecret(secret);
    entries.push(result.entry);
  }
  // The schema already said it at the same place (version 'latest' is both): once is enough.
  const schemaPaths = new Set(validation.findings.filter((finding) => finding.rule === 'schema').map((finding) => finding.path));
  // A rule's finding about one entry goes with it; the rest, and the schema's, are the file's.
  for (const finding of checkPublisherRules(server)) {
    if (schemaPaths.has(finding.path)) continue;
    const owner = entries.find((entry) => finding.path === entry.id || finding.path.startsWith(`${entry.id}.`));
    (owner ? owner.findings : findings).push(finding);
  }
  return { file, format: 'server.json', schema: validation.schema, name: stringOrUndefined(server.name), version: stringOrUndefined(server.version), findings, entries };
}
