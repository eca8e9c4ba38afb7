import * as path from 'node:path';
import { readdirSync } from 'node:fs';
import type { ClaudeSettings } from './claude-code-approvals.js';
import type { HostPlaces } from './host-paths.js';
import { isObject } from './server-entry.js';
import { readHostJsonObject } from './read-host-json-object.js';

/** What Claude Code knows of this project besides its MCP entries: its settings, the folder's trust, the /mcp toggles. */
export interface ClaudeProjectState {
  /** The project's key in ~/.claude.json: the repository root, or the folder itself outside one. */
  root: string;
  settings: ClaudeSettings[];
  trusted: boolean;
  /** Servers switched off in /mcp for this project (`projects[root].disabledMcpServers`). */
  toggledOff: Set<string>;
}

/**
 * The settings files Claude Code reads, highest precedence first (code.claude.com/docs/en/settings
 * "Settings precedence": managed, command line, local project, shared project, user), then the
 * project's entry in ~/.claude.json. Managed files: code.claude.com/docs/en/managed-settings (Linux
 * /etc/claude-code, macOS /Library/Application Support/ClaudeCode, Windows C:\Program Files\ClaudeCode,
 * each with a managed-settings.d/ folder of drop-ins).
 */
export function readClaudeProjectState(places: HostPlaces): ClaudeProjectState {
  const root = places.projectDirs.at(-1)!;
  const cwd = places.projectDirs[0]!;
  const settings: ClaudeSettings[] = [];
  const add = (scope: ClaudeSettings['scope'], file: string) => {
    const value = readHostJsonObject(file);
    if (value) settings.push({ scope, path: file, value });
  };
  const managed = managedFolder(places.platform);
  add('managed', path.join(managed, 'managed-settings.json'));
  for (const name of listJson(path.join(managed, 'managed-settings.d'))) add('managed', path.join(managed, 'managed-settings.d', name));
  for (const dir of [...new Set([cwd, root])]) add('local', path.join(dir, '.claude', 'settings.local.json'));
  for (const dir of [...new Set([cwd, root])]) add('project', path.join(dir, '.claude', 'settings.json'));
  add('user', path.join(places.claudeConfigDir, 'settings.json'));
  const statePath = path.join(places.home, '.claude.json');
  const state = readHostJsonObject(statePath);
  const projects = state && isObject(state.projects) ? state.projects : {};
  const entries = [...new Set([root, cwd])].map((dir) => projects[dir]).filter(isObject);
  for (const entry of entries) settings.push({ scope: 'state', path: statePath, value: entry });
  return {
    root,
    settings,
    trusted: entries.some((entry) => entry.hasTrustDialogAccepted === true),
    toggledOff: new Set(entries.flatMap((entry) => (Array.isArray(entry.disabledMcpServers) ? entry.disabledMcpServers.filter((name): name is string => typeof name === 'string') : []))),
  };
}

function managedFolder(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

function listJson(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .slice(0, 100);
  } catch {
    return [];
  }
}
