import { coerceArgWords, schemaTypes } from '../args/coerce-args.js';
import { parseArgWords } from '../args/parse-tool-args.js';
import { snakeToCamel } from '../executor/normalize-args.js';
import type { RegisteredTool } from '../registry/tool-types.js';

/**
 * A checked step's arguments typed by the tool's schema as exec types ARGS (SPEC §18), the one
 * typing the runner applies and `test --from` predicts: a string is typed as `key=value` is (`"5"`
 * → 5 where the property wants a number; cli-support's mergeArguments looks properties up the same
 * way), and a number, boolean, object or array given for a property that wants a string, and not
 * that type, becomes its text (`${temp}` saved as 36 → "36"). A property without a schema keeps
 * its value.
 */
export function typeStepArguments(tool: RegisteredTool, args: Record<string, unknown>, paramMappings: Record<string, Record<string, string>>): Record<string, unknown> {
  const properties = (tool.definition.parameters.properties ?? {}) as Record<string, unknown>;
  const mapping = tool.normalizesArgs ? (paramMappings[tool.definition.name] ?? {}) : {};
  const own = (key: string | undefined) => (key !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined);
  const propertySchemaFor = (key: string) => own(key) ?? (tool.normalizesArgs ? own(Object.hasOwn(mapping, key) ? mapping[key] : snakeToCamel(key)) : undefined);
  const typed = { ...args };
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string' || value === null || value === undefined) continue;
    const schema = propertySchemaFor(key);
    if (schema === undefined) continue;
    const wanted = schemaTypes(schema);
    const kinds = Array.isArray(value) ? ['array'] : typeof value === 'number' ? (Number.isInteger(value) ? ['integer', 'number'] : ['number']) : [typeof value];
    if (!wanted.has('string') || kinds.some((kind) => wanted.has(kind))) continue;
    // defineProperty: an argument named __proto__ stays an argument.
    Object.defineProperty(typed, key, { value: typeof value === 'object' ? JSON.stringify(value) : String(value), enumerable: true, writable: true, configurable: true });
  }
  const strings = Object.entries(args).filter(([, value]) => typeof value === 'string');
  return { ...typed, ...coerceArgWords(parseArgWords(strings.map(([key, value]) => `${key}=${value as string}`)), propertySchemaFor) };
}
