import type { McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import type { UserConfigValue } from './user-config-values.js';

/**
 * What a bundle's launch is composed from, shared by `mcp verify` of a bundle (expand-config.ts, which
 * has the toolkit's getMcpConfigForManifest do the rest) and the reader of Claude Desktop's installed
 * extensions (src/hosts/claude-desktop-extension.ts, synchronous, which cannot load the toolkit: see
 * composeMcpConfig). Rules: anthropics/mcpb src/shared/config.ts@27083dcf93c4d1c589af6b539ec746e50d6068e7.
 */

type McpConfig = McpbManifestAny['server']['mcp_config'];
type Paths = { join: (...parts: string[]) => string; sep: string };

/**
 * The folders `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}` stand for. UNCONFIRMED: the keys
 * and folders Claude Desktop passes. MANIFEST.md names these four; the toolkit's own test passes
 * lowercase keys (test/config.test.ts). The usual folders under the home are assumed (on Linux too,
 * where XDG may name others).
 */
export function systemDirs(home: string, paths: Paths): Record<string, string> {
  return { HOME: home, DESKTOP: paths.join(home, 'Desktop'), DOCUMENTS: paths.join(home, 'Documents'), DOWNLOADS: paths.join(home, 'Downloads') };
}

/**
 * The mcp_config with the override of `platform` applied as the toolkit applies it (command, args,
 * env each replaced whole, env not merged) and platform_overrides removed, so the toolkit, which
 * applies the override of `process.platform` only, does not apply the current platform's over it.
 */
export function withPlatformOverride(config: McpConfig, platform: NodeJS.Platform): McpConfig {
  const { platform_overrides: overrides, ...base } = config;
  const override = overrides?.[platform];
  return override ? { ...base, command: override.command || base.command, args: override.args || base.args, env: override.env || base.env } : base;
}

export interface ComposeOptions {
  /** The unpacked bundle's root: `${__dirname}`. */
  folder: string;
  /** The user's values over the manifest's defaults (userConfigValues). */
  values: Record<string, UserConfigValue>;
  platform: NodeJS.Platform;
  home: string;
  paths: Paths;
}

/**
 * getMcpConfigForManifest's composition, synchronously: a host reader is synchronous (HostReader),
 * and loading the toolkit (zod and its schemas) for `toolrun hosts`, which fast-hosts.ts answers from
 * one CommonJS file before the CLI loads, would cost more than these lines. The same steps as
 * config.ts: the platform's override, then the variables `__dirname`, `pathSeparator`, `/`, the
 * system folders and `user_config.KEY` (booleans as "true"/"false", lists kept as lists of strings),
 * replaced in every string; an argument that is exactly `${user_config.KEY}` of a list becomes
 * several arguments, and one with no (or an empty) value stays as written. test/hosts/
 * claude-desktop-extension.test.ts checks the result against the toolkit's own function.
 * The caller checks required values first (the toolkit then returns undefined).
 */
export function composeMcpConfig(config: McpConfig, options: ComposeOptions): { command: string; args: string[]; env: Record<string, string> } {
  const chosen = withPlatformOverride(config, options.platform);
  const variables: Record<string, string | string[]> = { __dirname: options.folder, pathSeparator: options.paths.sep, '/': options.paths.sep, ...systemDirs(options.home, options.paths) };
  for (const [key, value] of Object.entries(options.values)) {
    variables[`user_config.${key}`] = Array.isArray(value) ? value.map(String) : typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  }
  const text = (value: string) => replaceInString(value, variables);
  const args: string[] = [];
  for (const arg of chosen.args ?? []) {
    const whole = /^\$\{(user_config\.[^}]+)\}$/.exec(arg)?.[1];
    const replacement = whole === undefined ? undefined : variables[whole];
    if (whole === undefined) args.push(text(arg));
    else if (!replacement) args.push(arg);
    else args.push(...(Array.isArray(replacement) ? replacement : [replacement]));
  }
  const env = Object.fromEntries(Object.entries(chosen.env ?? {}).map(([name, value]) => [name, text(value)]));
  return { command: text(chosen.command), args, env };
}

/** config.ts's replaceVariables on a string: each variable in turn, a list left as written inside a string. */
function replaceInString(value: string, variables: Record<string, string | string[]>): string {
  let result = value;
  for (const [key, replacement] of Object.entries(variables)) {
    if (Array.isArray(replacement)) continue;
    // The toolkit builds the pattern from the key unescaped; escaped here so an odd key cannot break the expression.
    const pattern = new RegExp(`\\$\\{${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\}`, 'g');
    // A string replacement, as the toolkit's: `$$` and `$&` in a value mean what String.replace says.
    result = result.replace(pattern, replacement);
  }
  return result;
}
