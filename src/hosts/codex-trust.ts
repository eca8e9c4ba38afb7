import * as path from 'node:path';
import type { HostPlaces } from './host-paths.js';
import type { HostFileReport, HostGate } from './host-types.js';
import { isObject } from './server-entry.js';
import { tomlParser } from './host-parsers.js';
import { readHostFile } from './read-host-file.js';

/**
 * Codex reads a project's `.codex/config.toml` only when the project is trusted: the user's
 * `$CODEX_HOME/config.toml` says `[projects."<absolute path>"] trust_level = "trusted"` for the
 * project (its repository root, or the folder itself), as the trust prompt Codex shows on a first
 * run writes it. Sources: openai/codex codex-rs/config/src/loader/mod.rs@1288313 (decision_for_dir:
 * the folder's own key, then the project root's, then the repository root's; untrusted layers are
 * "loaded but disabled"), codex-rs/core/src/config/edit.rs (set_project_trust_level),
 * codex-rs/tui/src/onboarding/trust_directory.rs (the prompt writes the git root, else the cwd),
 * developers.openai.com/codex/config-basic ("closest wins; trusted projects only").
 * Undefined: Codex would read this project file.
 */
export function codexProjectTrust(report: HostFileReport, places: HostPlaces): HostGate | undefined {
  const userFile = path.join(places.codexHome, 'config.toml');
  const projects = userProjects(userFile);
  const candidates = [...new Set([report.projectDir, places.projectDirs.at(-1)!, places.projectDirs[0]!])];
  const levels = candidates.map((dir) => projects[dir]).filter(isObject);
  if (levels.some((level) => level.trust_level === 'trusted')) return undefined;
  const untrusted = levels.some((level) => level.trust_level === 'untrusted');
  const root = places.projectDirs.at(-1)!;
  return {
    state: 'untrusted',
    reason: `Codex reads ${report.path} only in a trusted project, and ${root} is ${untrusted ? 'marked untrusted' : 'not trusted'} in ${userFile}`,
    fix: `trust the project in Codex (run \`codex\` in ${root} and trust it), or add [projects."${root}"] trust_level = "trusted" to ${userFile}`,
  };
}

/** `[projects]` of the user's config.toml; none when it is missing or unreadable. */
function userProjects(file: string): Record<string, unknown> {
  const read = readHostFile(file);
  if (!read || 'problem' in read) return {};
  try {
    const value = tomlParser().parse(read.text) as unknown;
    return isObject(value) && isObject(value.projects) ? value.projects : {};
  } catch {
    return {};
  }
}
