import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * Ajv skips a property named `__proto__` (its `properties` and `required` code leaves it out, so
 * `{"__proto__": 5}` passes `{"type": "string"}` and a missing required `__proto__` goes unnoticed).
 * It is a legitimate property name of a tool's schema, so for such schemas the name is swapped for a
 * stand-in no real argument has, in the schema once and in each value before validating, and the
 * errors are given back under the real name.
 */
const STAND_IN = '\u0000__proto__';

/** Does this schema name a `__proto__` property anywhere (the only case that needs the swap)? */
export function namesProtoProperty(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"__proto__"');
}

/** The schema with `__proto__` under `properties` and in `required` swapped for the stand-in. */
export function swapProtoInSchema(schema: unknown, parentKey = '', depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => (parentKey === 'required' && item === '__proto__' ? STAND_IN : swapProtoInSchema(item, '', depth + 1)));
  if (schema === null || typeof schema !== 'object' || depth > 200) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = key === '__proto__' && parentKey === 'properties' ? STAND_IN : key;
    // defineProperty: an own "__proto__" elsewhere (a default value) stays a key, never a prototype.
    Object.defineProperty(copy, name, { value: swapProtoInSchema(value, key, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Validates `value` against a swapped schema: its own `__proto__` keys, at any depth, swapped too. */
export function validateSwapped(validate: ValidateFunction, value: unknown): ErrorObject[] | undefined {
  // A JSON round trip is linear and never recursion-deep; `{` or `,` before the quote means a key,
  // since inside a JSON string every quote is escaped.
  const swapped: unknown = JSON.parse(JSON.stringify(value).replace(/([{,])"__proto__":/g, `$1"\\u0000__proto__":`));
  if (validate(swapped)) return undefined;
  return JSON.parse(JSON.stringify(validate.errors ?? []).replaceAll('\\u0000__proto__', '__proto__')) as ErrorObject[];
}
