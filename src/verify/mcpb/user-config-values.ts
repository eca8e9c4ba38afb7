import type { McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import type { VerifyFinding } from '../verify-types.js';

/**
 * The user's `--user-config X=VALUE` strings turned into the values the toolkit expands
 * (McpbUserConfigValuesSchema: string, number, boolean or string[]), with the manifest's defaults
 * under them. UNCONFIRMED: that Claude Desktop gives a default as the value when the user leaves a
 * field as it is; its settings form shows the default (MANIFEST.md, "user_config"), and the toolkit's
 * getMcpConfigForManifest uses defaults for the variables but its required check looks only at the
 * values given, so a required field with a default counts as given here.
 */

export type UserConfigValue = string | number | boolean | string[];

export interface UserConfigValues {
  values: Record<string, UserConfigValue>;
  /** Required keys with neither a value nor a default. */
  missing: string[];
  findings: VerifyFinding[];
}

export function userConfigValues(manifest: McpbManifestAny, given: Record<string, string | string[]>, listSeparator: string): UserConfigValues {
  const options = manifest.user_config ?? {};
  const findings: VerifyFinding[] = [];
  const values: Record<string, UserConfigValue> = {};
  for (const [key, option] of Object.entries(options)) {
    if (option.default !== undefined) values[key] = option.default;
  }
  for (const [key, raw] of Object.entries(given)) {
    const option = options[key];
    if (!option) {
      const declared = Object.keys(options);
      findings.push(
        warning(
          `user_config.${key}`,
          `user_config.${key} is given but the manifest declares ${declared.length > 0 ? `only ${declared.map((name) => `user_config.${name}`).join(', ')}` : 'no user_config'}: check the name`,
        ),
      );
      continue;
    }
    const converted = convert(raw, option, listSeparator);
    if ('problem' in converted) findings.push(error(`user_config.${key}`, `user_config.${key}=${JSON.stringify(raw)} ${converted.problem}`));
    else values[key] = converted.value;
  }
  const missing = Object.entries(options)
    .filter(([key, option]) => option.required && isEmpty(values[key]))
    .map(([key]) => key);
  for (const key of missing) {
    findings.push(error(`user_config.${key}`, `user_config.${key} is required and has no value or default: give it with --user-config ${key}=VALUE`));
  }
  return { values, missing, findings };
}

type Option = NonNullable<McpbManifestAny['user_config']>[string];

/** The value as the toolkit expects it for the option's type, or what is wrong with it. */
function convert(raw: string | string[], option: Option, listSeparator: string): { value: UserConfigValue } | { problem: string } {
  if (option.multiple) return { value: Array.isArray(raw) ? raw : raw.split(listSeparator).filter((part) => part !== '') };
  const text = Array.isArray(raw) ? raw.join(listSeparator) : raw;
  if (option.type === 'number') {
    const number = Number(text);
    if (text.trim() === '' || Number.isNaN(number)) return { problem: 'is not a number: give a number' };
    if ((option.min !== undefined && number < option.min) || (option.max !== undefined && number > option.max)) {
      return { problem: `is outside ${option.min ?? '-∞'}..${option.max ?? '∞'}: give a number in that range` };
    }
    return { value: number };
  }
  if (option.type === 'boolean') {
    if (text === 'true' || text === 'false') return { value: text === 'true' };
    return { problem: 'is not a boolean: give true or false' };
  }
  return { value: text };
}

/** As the toolkit's hasRequiredConfigMissing: undefined, null, "" or an array that is empty or holds one. */
function isEmpty(value: UserConfigValue | undefined): boolean {
  if (Array.isArray(value)) return value.length === 0 || value.some((item) => item === '');
  return value === undefined || value === '';
}

function warning(path: string, message: string): VerifyFinding {
  return { level: 'warning', rule: 'mcpb/user-config', path: `manifest.json:${path}`, message };
}

function error(path: string, message: string): VerifyFinding {
  return { level: 'error', rule: 'mcpb/user-config', path: `manifest.json:${path}`, message };
}
