export interface NormalizedArgs {
  args: Record<string, unknown>;
  /** Renamed keys, original → new, empty when nothing changed. */
  renamed: Array<[from: string, to: string]>;
}

/**
 * Seed 000's parameter normalization for MCP tools: the static mapping for the tool first, then
 * snake_case → camelCase for names with underscores. Improvement over the seed: a name the tool's
 * schema already has is left alone (a server that really uses `device_name` gets `device_name`).
 */
export function normalizeArgs(args: Record<string, unknown>, schemaProperties: Set<string>, mapping: Record<string, string> | undefined): NormalizedArgs {
  const out: Record<string, unknown> = {};
  const renamed: NormalizedArgs['renamed'] = [];
  for (const [key, value] of Object.entries(args)) {
    let target = key;
    if (!schemaProperties.has(key)) {
      if (mapping && Object.hasOwn(mapping, key)) target = mapping[key]!;
      else if (key.includes('_')) target = snakeToCamel(key);
    }
    // An explicit camelCase argument wins over one converted into the same name.
    if (target !== key && Object.hasOwn(args, target)) target = key;
    if (target !== key) renamed.push([key, target]);
    // defineProperty: an argument named `__proto__` is passed on, not made the object's prototype.
    Object.defineProperty(out, target, { value, enumerable: true, writable: true, configurable: true });
  }
  return { args: out, renamed };
}

export function snakeToCamel(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `{device_name: "Switch One"} → {deviceName: "Switch One"}`, the seed's log line. */
export function describeRenaming(original: Record<string, unknown>, renamed: NormalizedArgs['renamed']): string {
  const before = renamed.map(([from]) => `${from}: ${JSON.stringify(original[from])}`).join(', ');
  const after = renamed.map(([from, to]) => `${to}: ${JSON.stringify(original[from])}`).join(', ');
  return `{${before}} → {${after}}`;
}
