import type { HostFileReport, HostName, HostScope, HostServer } from './host-types.js';
import { hostFiles, hostPlaces, type HostPlaces } from './host-paths.js';
import { readHostFile } from './read-host-file.js';
import { loadParsersFor } from './host-parsers.js';
import { applyHostGates } from './host-gates.js';
import { setAsideClashingExtensions } from './claude-desktop-clashes.js';

export type { HostFileReport } from './host-types.js';

/** Every host file that exists (or exists but cannot be read), read by its host's reader, each server gated as its host gates it. */
export async function findHostFiles(places: HostPlaces, only?: HostName): Promise<HostFileReport[]> {
  const reports: HostFileReport[] = [];
  const specs = hostFiles(places, only);
  const texts = new Map<string, ReturnType<typeof readHostFile>>();
  for (const spec of specs) if (!texts.has(spec.path)) texts.set(spec.path, readHostFile(spec.path));
  await loadParsersFor([...texts].filter(([, read]) => read !== undefined && !('problem' in read)).map(([path]) => path));
  // Run from the home folder, a user file is also where a project file would be (~/.cursor/mcp.json): one file, shown once.
  const userFiles = new Set(specs.filter((spec) => spec.scope === 'user').map((spec) => `${spec.host}\0${spec.path}`));
  for (const spec of specs) {
    if (spec.scope === 'project' && userFiles.has(`${spec.host}\0${spec.path}`)) continue;
    const read = texts.get(spec.path);
    if (read === undefined) continue;
    const base = { host: spec.host, scope: spec.scope, path: spec.path, projectDir: spec.projectDir };
    if ('problem' in read) {
      // ~/.claude.json is listed once per project folder (local scope): its problem once is enough.
      if (!reports.some((report) => report.path === spec.path)) reports.push({ ...base, servers: [], problems: [read.problem] });
      continue;
    }
    const result = spec.reader(read.text, { projectDir: spec.projectDir, home: places.home });
    // A local scope with no entry for this folder is not a file of its own to show.
    if (spec.scope === 'local' && result.servers.length === 0 && result.problems.length === 0) continue;
    if (spec.scope === 'local' && result.problems.length > 0 && reports.some((report) => report.path === spec.path)) continue;
    reports.push({ ...base, ...result });
  }
  setAsideClashingExtensions(reports);
  applyHostGates(reports, places);
  return reports;
}

/** Precedence of scopes when one host's files are merged: local over project over user. */
const SCOPE_RANK: Record<HostScope, number> = { user: 0, project: 1, local: 2 };

/**
 * One host's servers by name, merged as the host does: local over project over user, a nearer
 * project folder over a farther one (the order findHostFiles keeps within a scope).
 */
export function mergeHostServers(reports: readonly HostFileReport[]): Map<string, HostServer & { report: HostFileReport }> {
  const ordered = reports.map((report, index) => ({ report, index })).sort((a, b) => SCOPE_RANK[a.report.scope] - SCOPE_RANK[b.report.scope] || a.index - b.index);
  const merged = new Map<string, HostServer & { report: HostFileReport }>();
  for (const { report } of ordered) for (const server of report.servers) merged.set(server.name, { ...server, report });
  return merged;
}

/** The hosts whose config (any scope) has a server of this name, in SPEC §13's order. */
export async function hostsHavingServer(name: string, env: NodeJS.ProcessEnv, cwd: string): Promise<HostName[]> {
  const found = new Set<HostName>();
  for (const report of await findHostFiles(hostPlaces(env, cwd))) if (report.servers.some((server) => server.name === name && !server.disabled && !server.gate)) found.add(report.host);
  return [...found];
}
