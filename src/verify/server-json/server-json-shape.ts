/**
 * The server.json shapes verify reads (the MCP Registry's format), camelCase as every schema since
 * 2025-09-16 spells them; a 2025-07-09 file (snake_case) is renamed to these first. Values come from a
 * file that may not match its schema, so readers check types before use.
 */

/** Input (schema definition `Input`): a value, or what a host asks the user for. */
export interface ServerJsonInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: string;
  value?: string;
  default?: string;
  choices?: string[];
}

export interface InputWithVariables extends ServerJsonInput {
  /** `{name}` placeholders in `value`, each an input of its own. */
  variables?: Record<string, ServerJsonInput>;
}

/** An environment variable or a header. */
export interface KeyValueInput extends InputWithVariables {
  name: string;
}

export interface ServerJsonArgument extends InputWithVariables {
  type: 'positional' | 'named';
  name?: string;
  valueHint?: string;
  isRepeated?: boolean;
}

export interface ServerJsonTransport {
  type: string;
  url?: string;
  headers?: KeyValueInput[];
  /** 2025-12-11: `{name}` placeholders in a remote's `url`. */
  variables?: Record<string, ServerJsonInput>;
}

export interface ServerJsonPackage {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport?: ServerJsonTransport;
  runtimeArguments?: ServerJsonArgument[];
  packageArguments?: ServerJsonArgument[];
  environmentVariables?: KeyValueInput[];
}

export interface ServerJson {
  $schema?: string;
  name?: string;
  description?: string;
  version?: string;
  websiteUrl?: string;
  packages?: ServerJsonPackage[];
  remotes?: ServerJsonTransport[];
}

/**
 * A 2025-07-09 document (`registry_type`, `package_arguments`, `is_secret`…) renamed to camelCase.
 * The keys of `variables` are the publisher's own placeholder names and `_meta` is free-form: both kept.
 */
export function camelCaseServerJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCaseServerJson);
  if (typeof value !== 'object' || value === null) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '_meta') renamed[key] = inner;
    else if (key === 'variables' && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      renamed[key] = Object.fromEntries(Object.entries(inner).map(([name, input]) => [name, camelCaseServerJson(input)]));
    } else renamed[key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())] = camelCaseServerJson(inner);
  }
  return renamed;
}

/** Array fields of a file that may not match its schema: only the objects. */
export function objectsIn<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) as T[]) : [];
}

export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
