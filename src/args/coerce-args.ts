import type { ArgWord } from './parse-tool-args.js';

const JSON_TYPES = new Set(['number', 'integer', 'boolean', 'array', 'object', 'null']);

/**
 * Turns ARGS words into an arguments object. `key=value` is a string unless the property's schema
 * allows no string but numbers, booleans, arrays, objects or null: then the value is read as JSON
 * (`level=50` → 50). A value that is not valid JSON stays a string, so validation names the
 * property and the type it wants. `key:=json` is always JSON.
 */
export function coerceArgWords(words: ArgWord[], propertySchemaFor: (key: string) => unknown): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  // defineProperty, not args[key] = …: an argument named `__proto__` stays an argument, never the prototype.
  const set = (key: string, value: unknown) => Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
  for (const { key, value, isJson } of words) {
    if (isJson) {
      set(key, JSON.parse(value));
      continue;
    }
    const types = schemaTypes(propertySchemaFor(key));
    if (types.size > 0 && !types.has('string') && [...types].some((type) => JSON_TYPES.has(type))) {
      try {
        set(key, JSON.parse(value));
        continue;
      } catch {
        // Left as a string on purpose: validation then says "'level' must be integer".
      }
    }
    set(key, value);
  }
  return args;
}

/** coerceArgWords against an object schema's `properties` (or none: every key=value a string). */
export function coerceBySchema(words: ArgWord[], schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  return coerceArgWords(words, (key) => (Object.hasOwn(properties, key) ? properties[key] : undefined));
}

/** The JSON types a property schema allows, looking through anyOf/oneOf/allOf. */
export function schemaTypes(schema: unknown, into = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return into;
  const record = schema as Record<string, unknown>;
  if (typeof record.type === 'string') into.add(record.type);
  else if (Array.isArray(record.type)) for (const type of record.type) if (typeof type === 'string') into.add(type);
  if (Array.isArray(record.enum) && record.type === undefined) for (const item of record.enum) into.add(item === null ? 'null' : typeof item);
  if ('const' in record && record.type === undefined) into.add(record.const === null ? 'null' : typeof record.const);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = record[key];
    if (Array.isArray(branches)) for (const branch of branches) schemaTypes(branch, into);
  }
  return into;
}
