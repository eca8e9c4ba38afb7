import type { HostLaunch } from '../process/launch-environment.js';
import type { HostName } from './host-types.js';

export type { HostLaunch };

type Facts = Omit<HostLaunch, 'host' | 'sources'>;
type Row = Facts & { sources: readonly string[]; darwin?: Partial<Facts>; win32?: Partial<Facts> };

// The MCP TypeScript SDK's getDefaultEnvironment(): what a host using StdioClientTransport passes when it
// adds nothing itself. Since SDK 1.10 an entry's env is merged on top of it (before, it replaced it).
const SDK_POSIX = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
const SDK_WIN32 = ['APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES'];
const SDK = 'modelcontextprotocol/typescript-sdk:src/client/stdio.ts@v1.29.0 (DEFAULT_INHERITED_ENV_VARS; cross-spawn, shell: false)';
// What launchd gives an app opened from the Dock or Finder: no login shell ran, so no Homebrew, nvm, ~/.local/bin.
const LAUNCHD_PATH = '/usr/bin:/bin:/usr/sbin:/sbin';
// An extension runs in VS Code's extension host, whose env VS Code resolved from the login shell (macOS, Linux).
const VSCODE_SHELL_ENV = 'microsoft/vscode:src/vs/platform/shell/node/shellEnv.ts@0b6b9ef (getResolvedShellEnv: -ilc login shell unless started from the CLI)';

const ROWS: Record<HostName, Row> = {
  // Closed source. The docs name only "a subset like USER, HOME, PATH" and cwd '/' on macOS; the SDK list is
  // assumed (unconfirmed). Since late 2025 it also prepends every ~/.nvm/versions/node/*/bin, oldest first
  // (mcpb#130), which a fixed path cannot say. Windows: cwd is the app's install folder (issue #1254's npm log),
  // which no cwd value names; 'root' is the nearest. Linux has no official build.
  'claude-desktop': {
    title: 'Claude Desktop',
    inherits: SDK_POSIX,
    cwd: 'root',
    resolution: 'path',
    darwin: { path: LAUNCHD_PATH },
    win32: { inherits: SDK_WIN32 },
    sources: [
      'https://modelcontextprotocol.io/docs/tools/debugging (env subset; cwd "/" on macOS)',
      'https://github.com/modelcontextprotocol/servers/issues/64 (GUI PATH lacks nvm)',
      'https://github.com/modelcontextprotocol/mcpb/issues/130',
      'https://github.com/anthropics/claude-code/issues/1254',
      SDK,
    ],
  },
  // A CLI: the server gets the terminal's whole env (issue #28332: "inherits only the parent process environment",
  // i.e. all of it) and its cwd (#54786). No shell: it warns "Windows requires 'cmd /c' wrapper to execute npx".
  // The entry's cwd is ignored: "The `cwd` field in `.mcp.json` is… completely ignored… The server always starts in the
  // directory where Claude Code was launched" (#17565, closed stale; #54786, #42883 the same; no CHANGELOG entry fixes it).
  'claude-code': {
    title: 'Claude Code',
    variableDefaults: true,
    passVariable: '"env": {"NAME": "${NAME}"}',
    inherits: 'all',
    cwd: 'caller',
    entryCwd: 'ignored',
    resolution: 'path',
    sources: [
      'https://github.com/anthropics/claude-code/issues/17565',
      'https://github.com/anthropics/claude-code/issues/28332',
      'https://github.com/anthropics/claude-code/issues/54786',
      'https://github.com/SuperClaude-Org/SuperClaude_Framework/issues/390',
    ],
  },
  // Closed source, all unconfirmed: the SDK list (pi-codemode#74 says Cursor keeps the SDK allowlist and offers
  // ${env:NAME}); a VS Code fork, so a shell-resolved PATH; cwd the project (Cursor forum thread 63130).
  cursor: {
    title: 'Cursor',
    passVariable: '"env": {"NAME": "${env:NAME}"}',
    inherits: SDK_POSIX,
    cwd: 'project',
    resolution: 'path',
    win32: { inherits: SDK_WIN32 },
    sources: ['https://github.com/boozedog/pi-codemode/issues/74', 'https://forum.cursor.com/t/what-are-the-capabilities-of-mcp-json/63130', VSCODE_SHELL_ENV],
  },
  // { ...process.env }, envFile, then the entry (whose PATH VS Code appends to the inherited one rather than
  // replacing it); cwd: the entry's, else the workspace folder, else home. Windows: a .cmd/.bat found on PATH
  // (npx) runs with shell: true (CVE-2024-27980); anything else without a shell.
  vscode: {
    title: 'VS Code',
    passVariable: '"env": {"NAME": "${env:NAME}"} (or an envFile)',
    inherits: 'all',
    cwd: 'project',
    resolution: 'path',
    entryPath: 'append',
    win32: { resolution: 'shell' },
    sources: [
      'microsoft/vscode:src/vs/workbench/api/node/extHostMcpNode.ts@0334cc0 (startNodeMpc, formatSubprocessArguments)',
      'microsoft/vscode:src/vs/workbench/api/browser/mainThreadMcp.ts@0d40d2c (defaultCwd)',
      VSCODE_SHELL_ENV,
    ],
  },
  // Closed source. Its error "failed to start command: exec: "npx": executable file not found in $PATH" is
  // mark3labs/mcp-go's, which runs os.Environ() plus the entry, exec.LookPath, no Dir: env and resolution are
  // inferred from that; cwd unconfirmed (the language server's own, taken as the GUI's '/').
  windsurf: {
    title: 'Windsurf',
    passVariable: '"env": {"NAME": "${env:NAME}"}',
    inherits: 'all',
    cwd: 'root',
    resolution: 'path',
    sources: ['https://github.com/arcadeai-labs/smithery-cli/issues/115', 'mark3labs/mcp-go:client/transport/stdio.go@058c8b0', VSCODE_SHELL_ENV],
  },
  // env_clear(), then this allowlist (plus names in the entry's env_vars), then the entry's env. Unix: the OS
  // finds the program; Windows: which::which_in on the server's PATH/PATHEXT. No current_dir unless the entry has cwd.
  codex: {
    title: 'Codex',
    passVariable: 'env_vars = ["NAME"]',
    inherits: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', '__CF_USER_TEXT_ENCODING', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'],
    cwd: 'caller',
    resolution: 'path',
    win32: {
      inherits: [
        'PATH',
        'PATHEXT',
        'SHELL',
        'COMSPEC',
        'SYSTEMROOT',
        'SYSTEMDRIVE',
        'USERNAME',
        'USERDOMAIN',
        'USERPROFILE',
        'HOMEDRIVE',
        'HOMEPATH',
        'PROGRAMFILES',
        'PROGRAMFILES(X86)',
        'PROGRAMW6432',
        'PROGRAMDATA',
        'LOCALAPPDATA',
        'APPDATA',
        'TEMP',
        'TMP',
        'TMPDIR',
        'POWERSHELL',
        'PWSH',
      ],
    },
    sources: [
      'openai/codex:codex-rs/rmcp-client/src/utils.rs@08e9165 (DEFAULT_ENV_VARS)',
      'openai/codex:codex-rs/protocol/src/shell_environment.rs@09c8e31 (WINDOWS_CORE_ENV_VARS)',
      'openai/codex:codex-rs/rmcp-client/src/stdio_server_launcher.rs@0451186',
      'openai/codex:codex-rs/rmcp-client/src/program_resolver.rs@12b10a3',
    ],
  },
  // process.env through sanitizeEnvironment, always on for MCP servers: names matching TOKEN, SECRET, KEY, AUTH,
  // PASSWORD… and values that look like keys are dropped, unless the entry's env sets them (process/gemini-environment.ts).
  gemini: {
    title: 'Gemini CLI',
    variableDefaults: true,
    passVariable: '"env": {"NAME": "$NAME"}',
    inherits: 'all',
    sanitize: 'gemini',
    cwd: 'caller',
    resolution: 'path',
    sources: [
      'google-gemini/gemini-cli:packages/core/src/tools/mcp-client.ts@5411f11 (createTransport: StdioClientTransport, cwd: config.cwd)',
      'google-gemini/gemini-cli:packages/core/src/services/environmentSanitization.ts@5411f11',
      SDK,
    ],
  },
  // environment::inherited() plus the entry, no shell; the working directory the project store passes (taken as
  // the worktree root: unconfirmed). Zed loads the login shell's env at startup, so the PATH is the shell's.
  zed: {
    title: 'Zed',
    inherits: 'all',
    cwd: 'project',
    // ContextServerCommand has command, args, env, timeout: no cwd (zed-industries/zed crates/settings_content/src/project.rs).
    entryCwd: 'ignored',
    resolution: 'path',
    sources: [
      'zed-industries/zed:crates/context_server/src/transport/stdio_transport.rs@204bad9',
      'zed-industries/zed:crates/context_server/src/context_server.rs@22cc524 (working_directory)',
      'zed-industries/zed:crates/zed/src/main.rs (load_login_shell_environment)',
      'zed-industries/zed:crates/settings_content/src/project.rs (ContextServerCommand: no cwd)',
    ],
  },
  // getDefaultEnvironment() plus the entry, from the extension host: its cwd is '/' on macOS (issue #5760).
  cline: {
    title: 'Cline',
    inherits: SDK_POSIX,
    cwd: 'root',
    resolution: 'path',
    win32: { inherits: SDK_WIN32 },
    sources: ['cline/cline:apps/vscode/src/services/mcp/McpHub.ts@21cb8d2', 'https://github.com/cline/cline/issues/5760', SDK, VSCODE_SHELL_ENV],
  },
  // As Cline (cwd '/' assumed from the same extension host: unconfirmed), but on Windows every command is
  // wrapped in `cmd.exe /c` for .cmd/.ps1 shims.
  roo: {
    title: 'Roo Code',
    passVariable: '"env": {"NAME": "${env:NAME}"}',
    inherits: SDK_POSIX,
    cwd: 'root',
    resolution: 'path',
    win32: { inherits: SDK_WIN32, resolution: 'shell' },
    sources: ['RooCodeInc/Roo-Code:src/services/mcp/McpHub.ts@cb83656', SDK, VSCODE_SHELL_ENV],
  },
  // The SDK list (the SDK merges it) plus HOME, USER, USERPROFILE, LOGNAME, USERNAME. PATH is set after the
  // entry's env (an entry PATH loses) and off Windows is the login shell's. cwd: the workspace root. Windows:
  // npx, uv, uvx, pnpx, dlx, nx, bunx go through `cmd.exe /c`.
  continue: {
    title: 'Continue',
    inherits: [...SDK_POSIX, 'USERPROFILE', 'USERNAME'],
    cwd: 'project',
    resolution: 'path',
    entryPath: 'ignored',
    win32: { inherits: [...SDK_WIN32, 'HOME', 'USER', 'LOGNAME'], resolution: 'shell' },
    sources: ['continuedev/continue:core/context/mcp/MCPConnection.ts@d0a3c0b (constructStdioTransport, resolveCwd, resolveCommandForPlatform)', SDK],
  },
  // { ...process.env, ...environment }; cwd: the instance (project) directory in current versions, none in
  // older ones (which then meant the folder opencode was started in).
  opencode: {
    title: 'opencode',
    passVariable: '"environment": {"NAME": "{env:NAME}"}',
    inherits: 'all',
    cwd: 'project',
    resolution: 'path',
    sources: ['anomalyco/opencode:packages/opencode/src/mcp/index.ts@001133b (env)', 'anomalyco/opencode:packages/opencode/src/mcp/index.ts (connectLocal: cwd = InstanceState.directory)', SDK],
  },
};

/** The launch of `host` on `platform` ('darwin' | 'linux' | 'win32'): facts differ per platform (launchd PATH on macOS only; Windows variable names for the SDK default list). */
export function hostLaunch(host: HostName, platform: NodeJS.Platform): HostLaunch {
  const { darwin, win32, sources, ...facts } = ROWS[host];
  const override = platform === 'darwin' ? darwin : platform === 'win32' ? win32 : undefined;
  return { host, ...facts, ...override, sources };
}
