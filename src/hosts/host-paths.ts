import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { dirname, join, parse as parsePath } from 'node:path';
import type { HostName, HostReader, HostScope } from './host-types.js';
import { readClaudeDesktop } from './claude-desktop.js';
import { claudeDesktopExtensionReader } from './claude-desktop-extension.js';
import { readClaudeCodeLocal, readClaudeCodeProject, readClaudeCodeUser } from './claude-code.js';
import { readCursor } from './cursor.js';
import { readVsCode } from './vscode.js';
import { readWindsurf } from './windsurf.js';
import { readCodex } from './codex.js';
import { readGemini } from './gemini.js';
import { readZed } from './zed.js';
import { readCline } from './cline.js';
import { readRoo } from './roo.js';
import { readContinue, readContinueJson } from './continue.js';
import { readOpencode } from './opencode.js';

/** Where to look: the user's folders, and the project's (cwd up to the repository root). */
export interface HostPlaces {
  platform: NodeJS.Platform;
  home: string;
  /** $XDG_CONFIG_HOME, else ~/.config. */
  xdgConfig: string;
  /** %APPDATA% (Windows), else undefined. */
  appData?: string;
  /** $CODEX_HOME, else ~/.codex. */
  codexHome: string;
  /** $CLAUDE_CONFIG_DIR, else ~/.claude: Claude Code's user settings.json. */
  claudeConfigDir: string;
  /** Where the gates read what only the host knows (trust, approvals): $GEMINI_CLI_TRUSTED_FOLDERS_PATH, $GEMINI_CLI_TRUST_WORKSPACE. */
  env: NodeJS.ProcessEnv;
  /** Folders from cwd up to the repository root (nearest .git, else the filesystem root), nearest first. */
  projectDirs: string[];
}

/** One file a host may read, with the reader for it. */
export interface HostFileSpec {
  host: HostName;
  scope: HostScope;
  path: string;
  /** The project folder a project or local file belongs to (the cwd for user files). */
  projectDir: string;
  reader: HostReader;
}

/**
 * The places, from the environment. `TOOLRUN_HOST_PLATFORM` (linux, darwin, win32) replaces
 * process.platform: a testing aid, so macOS and Windows layouts can be tested on any machine (the
 * folders of that platform, joined with this machine's separator).
 */
export function hostPlaces(env: NodeJS.ProcessEnv, cwd: string, platform: NodeJS.Platform = process.platform): HostPlaces {
  const chosen = (['linux', 'darwin', 'win32'] as const).find((name) => name === env.TOOLRUN_HOST_PLATFORM) ?? platform;
  // The machine's own separators: TOOLRUN_HOST_PLATFORM changes the layout (which folders), not how paths are written.
  // Without HOME (cron, systemd), the account's home: '' would make "user" files relative to the cwd.
  const home = (chosen === 'win32' ? env.USERPROFILE || env.HOME : env.HOME) || homedir();
  return {
    platform: chosen,
    home,
    xdgConfig: env.XDG_CONFIG_HOME || path.join(home, '.config'),
    appData: chosen === 'win32' ? env.APPDATA || path.join(home, 'AppData', 'Roaming') : undefined,
    codexHome: env.CODEX_HOME || path.join(home, '.codex'),
    claudeConfigDir: env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'),
    env,
    projectDirs: projectDirs(cwd, home),
  };
}

/**
 * The project's folders: cwd, its parent, … up to the first folder holding `.git` (the repository
 * root). Outside a repository, cwd alone: walking up to `/` would read a `.cursor/mcp.json` that
 * anyone could leave in `/tmp` or another shared parent, and project files override the user's own.
 * Never above the home folder either, for the same reason.
 */
export function projectDirs(cwd: string, home?: string): string[] {
  const dirs: string[] = [];
  let dir = cwd;
  for (let depth = 0; depth < 256; depth++) {
    dirs.push(dir);
    if (exists(join(dir, '.git'))) return dirs;
    const parent = dirname(dir);
    if (parent === dir || dir === parsePath(dir).root || dir === home) break;
    dir = parent;
  }
  return [cwd];
}

function exists(path: string): boolean {
  // ENOENT without throwing: an exception per folder walked up costs more than the stat itself.
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Every file each host reads, lowest precedence first within a host (user, then project from the
 * farthest folder to the nearest, then local), so a later one's server of the same name wins.
 */
export function hostFiles(places: HostPlaces, only?: HostName): HostFileSpec[] {
  const { home, platform } = places;
  const cwd = places.projectDirs[0]!;
  // Farthest first: the nearer project file wins.
  const projectDirsOuterFirst = [...places.projectDirs].reverse();
  // VS Code's user folder (code.visualstudio.com/docs/configure/settings: "User settings file location").
  const codeUser =
    platform === 'win32'
      ? path.join(places.appData!, 'Code', 'User')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support', 'Code', 'User')
        : path.join(places.xdgConfig, 'Code', 'User');
  const files: HostFileSpec[] = [];
  // `--host NAME` builds (and lists folders for) that host's files only.
  const wanted = (host: HostName) => only === undefined || only === host;
  const user = (host: HostName, file: string, reader: HostReader) => wanted(host) && files.push({ host, scope: 'user', path: file, projectDir: cwd, reader });
  const project = (host: HostName, relative: string, reader: HostReader) => {
    if (wanted(host)) for (const dir of projectDirsOuterFirst) files.push({ host, scope: 'project', path: path.join(dir, relative), projectDir: dir, reader });
  };

  // Claude Desktop: no Linux build; ~/.config/Claude is where the community Linux builds (and many
  // install scripts) put it: unconfirmed by Anthropic.
  const claudeData =
    platform === 'win32' ? path.join(places.appData!, 'Claude') : platform === 'darwin' ? path.join(home, 'Library', 'Application Support', 'Claude') : path.join(places.xdgConfig, 'Claude');
  user('claude-desktop', path.join(claudeData, 'claude_desktop_config.json'), readClaudeDesktop);
  // Its installed extensions (MCPB bundles), one user file each, after the config, whose names win
  // (claude-desktop-extension.ts has the sources; claude-desktop-clashes.ts the names).
  for (const id of wanted('claude-desktop') ? listFolder(path.join(claudeData, 'Claude Extensions')) : []) {
    const folder = path.join(claudeData, 'Claude Extensions', id);
    const settings = path.join(claudeData, 'Claude Extensions Settings', `${id}.json`);
    user('claude-desktop', path.join(folder, 'manifest.json'), claudeDesktopExtensionReader({ folder, settings }, platform));
  }
  user('claude-code', path.join(home, '.claude.json'), readClaudeCodeUser);
  project('claude-code', '.mcp.json', readClaudeCodeProject);
  if (wanted('claude-code'))
    for (const dir of projectDirsOuterFirst) files.push({ host: 'claude-code', scope: 'local', path: path.join(home, '.claude.json'), projectDir: dir, reader: readClaudeCodeLocal });
  user('cursor', path.join(home, '.cursor', 'mcp.json'), readCursor);
  project('cursor', path.join('.cursor', 'mcp.json'), readCursor);
  user('vscode', path.join(codeUser, 'mcp.json'), readVsCode);
  project('vscode', path.join('.vscode', 'mcp.json'), readVsCode);
  user('windsurf', path.join(home, '.codeium', 'windsurf', 'mcp_config.json'), readWindsurf);
  user('codex', path.join(places.codexHome, 'config.toml'), readCodex);
  project('codex', path.join('.codex', 'config.toml'), readCodex);
  user('gemini', path.join(home, '.gemini', 'settings.json'), readGemini);
  project('gemini', path.join('.gemini', 'settings.json'), readGemini);
  // zed.dev/docs/configuring-zed: ~/.config/zed, $XDG_CONFIG_HOME/zed on Linux only.
  const zedUser = platform === 'win32' ? path.join(places.appData!, 'Zed') : platform === 'darwin' ? path.join(home, '.config', 'zed') : path.join(places.xdgConfig, 'zed');
  user('zed', path.join(zedUser, 'settings.json'), readZed);
  project('zed', path.join('.zed', 'settings.json'), readZed);
  user('cline', path.join(codeUser, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), readCline);
  user('roo', path.join(codeUser, 'globalStorage', 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), readRoo);
  project('roo', path.join('.roo', 'mcp.json'), readRoo);
  user('continue', path.join(home, '.continue', 'config.yaml'), readContinue);
  for (const dir of wanted('continue') ? projectDirsOuterFirst : []) {
    const blocks = path.join(dir, '.continue', 'mcpServers');
    for (const name of listFolder(blocks)) {
      const reader = /\.ya?ml$/i.test(name) ? readContinue : /\.json$/i.test(name) ? readContinueJson : undefined;
      if (reader) files.push({ host: 'continue', scope: 'project', path: path.join(blocks, name), projectDir: dir, reader });
    }
  }
  // opencode: ~/.config/opencode on every platform (it uses xdg-basedir), opencode.json or .jsonc.
  for (const name of ['opencode.json', 'opencode.jsonc']) user('opencode', path.join(places.xdgConfig, 'opencode', name), readOpencode);
  for (const name of ['opencode.json', 'opencode.jsonc']) project('opencode', name, readOpencode);
  return files;
}

/** A folder's entries, sorted (at most 1000: a block folder holds a few files), or none. */
function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).sort().slice(0, 1000);
  } catch {
    return [];
  }
}
