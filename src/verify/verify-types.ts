/**
 * `toolrun mcp verify` (SPEC §25): what a check of a server.json or a .mcpb says. The readers
 * (server-json/, mcpb/) turn a file into a VerifyReport; the command launches each entry's composed
 * launch with --launch and prints the report (table, --json, JUnit, SARIF, annotations).
 */

/** One problem found in the file or an entry; `path` is where in the file (a JSON path like `packages[0].identifier`, or a file of the bundle). */
export interface VerifyFinding {
  level: 'error' | 'warning' | 'note';
  /** A stable id: `schema`, `server-json/version-latest`, `mcpb/missing-file`, `launch/import-error`… */
  rule: string;
  /** `packages[0].environmentVariables[1].name`; `manifest.json:server.entry_point`; '' for the file as a whole. */
  path: string;
  /** One line: the problem, then the fix. */
  message: string;
  /** Where the rule comes from (a URL or `owner/repo path@commit`), for the reader who doubts it. */
  source?: string;
}

/** The process or URL a host would start for an entry, with the environment it would give it. */
export type ComposedLaunch =
  { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string } | { transport: 'streamable-http' | 'sse'; url: string; headers: Record<string, string> };

export type EntryKind = 'npm' | 'pypi' | 'oci' | 'nuget' | 'mcpb' | 'remote';

/** One installable thing: a `packages[i]` or `remotes[i]` of a server.json, or a bundle itself. */
export interface VerifyEntry {
  /** `packages[0]`, `remotes[1]`, or `bundle` for a .mcpb. */
  id: string;
  kind: EntryKind;
  /** `npm @scope/server@1.2.3`, `remote https://…`, `bundle my-server 0.3.1`. */
  label: string;
  /** Which host's resolver composed `launch` (`vscode`, `claude-desktop`), with its source. */
  composedAs?: { host: string; source: string };
  /** Undefined when it cannot be composed (its findings say why). */
  launch?: ComposedLaunch;
  findings: VerifyFinding[];
  /** Filled by --launch: did it start and answer as a host expects. */
  launched?: LaunchVerdict;
}

export interface LaunchVerdict {
  /** It started and answered initialize. */
  handshake: boolean;
  serverInfo?: { name?: string; version?: string };
  protocolVersion?: string;
  tools?: number;
  /** mcp conform's counts (profile toolrun@2); undefined when the handshake failed. */
  conform?: { passed: number; failed: number; warnings: number };
  /** mcp lint's counts over every target. */
  lint?: { errors: number; warnings: number };
  durationMs: number;
  /** The launch failed: why, in one line (the server's own import error, npx's "no matching version"…). */
  error?: string;
  /** The last lines of the server's stderr, secrets masked. */
  stderrTail?: string[];
}

export interface VerifyReport {
  /** As the user gave it. */
  file: string;
  format: 'server.json' | 'mcpb';
  /** server.json: the schema it was validated against (its `$schema`, or the newest shipped). */
  schema?: string;
  /** server.json: `name` and `version`; mcpb: the manifest's. */
  name?: string;
  version?: string;
  /** Findings about the file as a whole (schema errors, a manifest that does not parse). */
  findings: VerifyFinding[];
  entries: VerifyEntry[];
}

/** An entry fails on any error finding or a failed launch; a file with error findings fails. */
export function entryFailed(entry: VerifyEntry): boolean {
  return entry.findings.some((finding) => finding.level === 'error') || (entry.launched !== undefined && (!entry.launched.handshake || (entry.launched.conform?.failed ?? 0) > 0));
}

export function reportFailed(report: VerifyReport): boolean {
  return report.findings.some((finding) => finding.level === 'error') || report.entries.some(entryFailed);
}
