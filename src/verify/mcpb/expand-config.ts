import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import type { McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import type { ComposedLaunch, VerifyFinding } from '../verify-types.js';
import { loadBundleToolkit } from './load-toolkit.js';
import { userConfigValues, type UserConfigValue } from './user-config-values.js';
import { systemDirs, withPlatformOverride } from './compose-mcp-config.js';

/**
 * The launch Claude Desktop composes for a bundle: the toolkit's own getMcpConfigForManifest
 * (anthropics/mcpb src/shared/config.ts@27083dcf93c4d1c589af6b539ec746e50d6068e7), which replaces
 * `${__dirname}`, `${HOME}`…, `${pathSeparator}`/`${/}` and `${user_config.X}` (an argument that is
 * exactly an array-valued `${user_config.X}` becomes several arguments). Claude Desktop is closed
 * source: which values it gives the variables is read from the toolkit and MANIFEST.md, and marked
 * UNCONFIRMED below where neither says.
 */

export const COMPOSED_AS = { host: 'claude-desktop', source: 'getMcpConfigForManifest, anthropics/mcpb src/shared/config.ts@27083dcf93c4d1c589af6b539ec746e50d6068e7 (@anthropic-ai/mcpb 2.x)' };

export interface ExpandOptions {
  /** The unpacked bundle's root: `${__dirname}`. */
  folder: string;
  /** The user's values (`--user-config X=VALUE`); a `multiple` option's values as an array, or one string split on the checked platform's path-list separator (`:`, `;` on Windows). */
  userConfig: Record<string, string | string[]>;
  /** The platform whose overrides apply and whose path separator is used; default the current one. */
  platform?: NodeJS.Platform;
  /** The home folder the directories are under; default os.homedir(). */
  home?: string;
}

export interface ExpandedLaunch {
  /** Undefined when it cannot be composed (a required user_config without a value; findings say which). */
  launch?: ComposedLaunch;
  findings: VerifyFinding[];
  composedAs: { host: string; source: string };
}

export async function expandLaunch(manifest: McpbManifestAny, options: ExpandOptions): Promise<ExpandedLaunch> {
  const platform = options.platform ?? process.platform;
  const paths = platform === 'win32' ? win32 : posix;
  const values = userConfigValues(manifest, options.userConfig, paths.delimiter);
  if (values.missing.length > 0) return { findings: values.findings, composedAs: COMPOSED_AS };
  const toolkit = await loadBundleToolkit();
  const home = options.home ?? homedir();
  const config = await toolkit.getMcpConfigForManifest({
    manifest: { ...manifest, server: { ...manifest.server, mcp_config: withPlatformOverride(manifest.server.mcp_config, platform) } } as McpbManifestAny,
    extensionPath: options.folder,
    systemDirs: systemDirs(home, paths),
    userConfig: values.values,
    pathSeparator: paths.sep,
  });
  if (!config) {
    const finding: VerifyFinding = {
      level: 'error',
      rule: 'mcpb/manifest',
      path: 'manifest.json:server.mcp_config',
      message: 'the bundle toolkit composed no launch from server.mcp_config: check it with `mcpb validate`',
    };
    return { findings: [...values.findings, finding], composedAs: COMPOSED_AS };
  }
  const findings = [...values.findings];
  let command = config.command;
  if (manifest.server.type === 'node' && command === 'node') {
    // "Node.js ships with Claude for macOS and Windows" (anthropics/mcpb README.md@27083dcf, "Node.js
    // Bundles"): Claude Desktop runs node bundles with its own Node. UNCONFIRMED which version, and
    // what it runs on Linux. toolrun cannot run that one, so it runs the Node it runs on.
    command = process.execPath;
    findings.push({
      level: 'note',
      rule: 'mcpb/node-runtime',
      path: 'manifest.json:server.mcp_config.command',
      message: `"node" runs as ${process.execPath} (Node ${process.version}), the Node running toolrun; Claude Desktop uses its built-in Node: check the bundle under that version too if they differ`,
    });
  }
  // python, uv and binary commands run as written, from the PATH toolrun runs with. UNCONFIRMED: how
  // Claude Desktop finds python, and whether it runs a uv bundle itself (MANIFEST.md: for uv "mcp_config
  // is optional (host manages execution)", while the 0.4 schema still requires mcp_config).
  const launch: ComposedLaunch = { transport: 'stdio', command, args: config.args ?? [], env: config.env ?? {} };
  return { launch, findings: [...findings, ...unexpanded(launch, values.values)], composedAs: COMPOSED_AS };
}

/** A `${…}` left in the launch: the toolkit keeps a variable it has no value for as written. */
function unexpanded(launch: ComposedLaunch & { transport: 'stdio' }, values: Record<string, UserConfigValue>): VerifyFinding[] {
  const places: [string, string][] = [
    ['command', launch.command],
    // The composed args, not the manifest's: an array user_config may have changed their count.
    ...launch.args.map((arg): [string, string] => ['args', arg]),
    ...Object.entries(launch.env).map(([name, value]): [string, string] => [`env.${name}`, value]),
  ];
  return places.flatMap(([field, value]) =>
    [...value.matchAll(/\$\{([^}]+)\}/g)].map((match) => ({
      level: 'warning' as const,
      rule: 'mcpb/unexpanded-variable',
      path: `manifest.json:server.mcp_config.${field}`,
      message: `\${${match[1]}} in ${field} ${whyUnexpanded(match[1]!, values)}`,
    })),
  );
}

function whyUnexpanded(variable: string, values: Record<string, UserConfigValue>): string {
  if (!variable.startsWith('user_config.')) return 'is not a variable the host defines and stays as written: use __dirname, HOME, DESKTOP, DOCUMENTS, DOWNLOADS, pathSeparator, / or user_config.X';
  const key = variable.slice('user_config.'.length);
  // replaceVariables expands a list only where it is a whole argument; inside a string it keeps it
  // (and the toolkit prints "Cannot replace … with array value in string context" to the console).
  if (Array.isArray(values[key])) return `is a list (multiple) inside a string, which stays as written: make "\${${variable}}" an argument of its own`;
  return `has no value and stays as written: give it (--user-config ${key}=VALUE) or a default in the manifest`;
}
