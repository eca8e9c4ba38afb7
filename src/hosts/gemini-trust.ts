import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { HostPlaces } from './host-paths.js';
import type { HostGate } from './host-types.js';
import { isObject } from './server-entry.js';
import { readHostJsonObject } from './read-host-json-object.js';

/**
 * Gemini CLI's folder trust, read at google-gemini/gemini-cli@5411f11 (Aug 2026):
 * - on by default: `security.folderTrust.enabled` defaults to true (packages/cli/src/config/trustedFolders.ts:
 *   `settings.security?.folderTrust?.enabled ?? true`);
 * - packages/core/src/utils/trust.ts checkPathTrust: `GEMINI_CLI_TRUST_WORKSPACE` 'true' / 'false' wins; then
 *   the rules of `~/.gemini/trustedFolders.json` (or `$GEMINI_CLI_TRUSTED_FOLDERS_PATH`), a JSON object of
 *   path → TRUST_FOLDER | TRUST_PARENT | DO_NOT_TRUST: a rule covers its folder and everything below
 *   (TRUST_PARENT: the rule's parent folder), realpaths compared, the longest rule path wins; no rule: untrusted;
 * - untrusted: the workspace's .gemini/settings.json is dropped (settings.ts: `isTrusted ? workspace : {}`), and
 *   no MCP server starts at all (mcp-client-manager.ts startConfiguredMcpServers: `if (!isTrustedFolder()) return`;
 *   createTransport: "MCP server '…' uses stdio transport but current folder is not trusted").
 * Undefined: Gemini CLI would start its servers here.
 */
export function geminiFolderTrust(places: HostPlaces): HostGate | undefined {
  const cwd = places.projectDirs[0]!;
  const forced = places.env.GEMINI_CLI_TRUST_WORKSPACE;
  if (forced === 'true') return undefined;
  const userSettings = readHostJsonObject(path.join(places.home, '.gemini', 'settings.json'));
  const security = userSettings && isObject(userSettings.security) ? userSettings.security : undefined;
  const folderTrust = security && isObject(security.folderTrust) ? security.folderTrust : undefined;
  if (forced !== 'false' && folderTrust?.enabled === false) return undefined;
  const rulesFile = places.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(places.home, '.gemini', 'trustedFolders.json');
  const verdict = forced === 'false' ? false : trustOf(cwd, readHostJsonObject(rulesFile) ?? {}, places.platform);
  if (verdict === true) return undefined;
  return {
    state: 'untrusted',
    reason: `Gemini CLI starts no MCP server in a folder you have not trusted (${cwd}${verdict === false ? ', DO_NOT_TRUST in ' + rulesFile : forced === 'false' ? ', GEMINI_CLI_TRUST_WORKSPACE=false' : `: no rule in ${rulesFile}`})`,
    fix: `trust the folder in Gemini CLI: run \`gemini\` in ${cwd} and choose to trust it (or /permissions)`,
  };
}

/** The longest matching rule's verdict, or undefined when no rule covers the folder. */
function trustOf(folder: string, rules: Record<string, unknown>, platform: NodeJS.Platform): boolean | undefined {
  const location = real(folder);
  let longest = -1;
  let verdict: boolean | undefined;
  for (const [rulePath, level] of Object.entries(rules)) {
    if (level !== 'TRUST_FOLDER' && level !== 'TRUST_PARENT' && level !== 'DO_NOT_TRUST') continue;
    const effective = real(level === 'TRUST_PARENT' ? path.dirname(rulePath) : rulePath);
    if (!isSubpath(effective, location, platform) || rulePath.length <= longest) continue;
    longest = rulePath.length;
    verdict = level !== 'DO_NOT_TRUST';
  }
  return verdict;
}

function isSubpath(parent: string, child: string, platform: NodeJS.Platform): boolean {
  const fold = (value: string) => (platform === 'linux' ? value : value.toLowerCase());
  const relative = path.relative(fold(parent), fold(child));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function real(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}
