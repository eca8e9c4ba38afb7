import type { HostFileReport } from './host-types.js';
import { isClaudeExtensionManifest } from './claude-desktop-extension.js';

/**
 * An extension whose name is already a server of claude_desktop_config.json, or of an extension read
 * before it, is set apart (removed from its report, with a problem naming both files), in place: the
 * config's entry wins. UNCONFIRMED what Claude Desktop itself does with such a clash (it keeps the two
 * apart internally); without this, one would silently replace the other in toolrun's merge by name.
 */
export function setAsideClashingExtensions(reports: HostFileReport[]): void {
  const owner = new Map<string, string>();
  const desktop = reports.filter((report) => report.host === 'claude-desktop');
  for (const report of desktop) if (!isClaudeExtensionManifest(report.path)) for (const server of report.servers) owner.set(server.name, report.path);
  for (const report of desktop) {
    if (!isClaudeExtensionManifest(report.path)) continue;
    for (const server of [...report.servers]) {
      const first = owner.get(server.name);
      if (first === undefined) {
        owner.set(server.name, report.path);
        continue;
      }
      report.servers.splice(report.servers.indexOf(server), 1);
      const fix = isClaudeExtensionManifest(first) ? 'remove one of the two extensions in Claude Desktop' : 'rename or remove that entry to use the extension';
      report.problems.push(`extension '${server.name}' has the name of a server in ${first}, which is used instead: ${fix}`);
    }
  }
}
