import type { PlannedCall } from './check-types.js';
import { compileToolSchema, firstValidationError } from './tool-schema.js';

type Schema = Record<string, unknown>;

/** The placeholder per JSON type: recognizable in a server's logs as toolrun's. */
const PLACEHOLDERS: Record<string, () => unknown> = { string: () => 'toolrun', number: () => 1, integer: () => 1, boolean: () => true, array: () => [], object: () => ({}), null: () => null };

const FORMAT_EXAMPLES: Record<string, string> = {
  uri: 'https://example.com/toolrun',
  url: 'https://example.com/toolrun',
  email: 'toolrun@example.com',
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
};

const MAX_DEPTH = 8;

/**
 * The smallest arguments a tool's inputSchema accepts: required properties only, each from its
 * `default`, `examples`, `enum[0]` or `const`, else a placeholder of its type ("toolrun", 1, true,
 * [], {} filled recursively). Checked against the schema with Ajv; undefined with the reason when
 * no valid arguments could be made (the call is then skipped, never sent with arguments that lie).
 */
export function generateArguments(inputSchema: unknown, protocolVersion = '2025-11-25'): { arguments: Record<string, unknown> } | { reason: string } {
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) return { reason: 'the tool has no inputSchema object' };
  const root = inputSchema as Schema;
  const value = valueFor(root, root, 0);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'its inputSchema does not describe an object' };
  const compiled = compileToolSchema(root, protocolVersion);
  if ('problem' in compiled) return { reason: `its inputSchema cannot be used: ${compiled.problem}` };
  const errors = compiled.validator(value);
  if (errors) {
    const { path, message } = firstValidationError(errors);
    return { reason: `no valid arguments could be generated (${path || '(root)'} ${message})` };
  }
  return { arguments: value as Record<string, unknown> };
}

function valueFor(schema: Schema, root: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const resolved = resolveRef(schema, root);
  if ('const' in resolved) return resolved.const;
  if ('default' in resolved) return resolved.default;
  if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return resolved.examples[0];
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return resolved.enum[0];
  const branch = [resolved.anyOf, resolved.oneOf, resolved.allOf].find(Array.isArray)?.[0];
  const type = typeOf(resolved);
  if (type === undefined && branch && typeof branch === 'object') return valueFor(branch as Schema, root, depth + 1);
  switch (type) {
    case 'object':
      return objectFor(resolved, root, depth);
    case 'array':
      return arrayFor(resolved, root, depth);
    case 'string':
      return stringFor(resolved);
    case 'number':
    case 'integer':
      return numberFor(resolved, type);
    default:
      return type ? PLACEHOLDERS[type]?.() : 'toolrun';
  }
}

function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? schema.type[0];
  if (schema.properties || schema.required) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function objectFor(schema: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const value: Record<string, unknown> = {};
  for (const name of required) {
    const property = properties[name];
    const generated = property && typeof property === 'object' ? valueFor(property, root, depth + 1) : 'toolrun';
    // defineProperty: a property named __proto__ stays a key.
    Object.defineProperty(value, name, { value: generated, enumerable: true, writable: true, configurable: true });
  }
  return value;
}

function arrayFor(schema: Schema, root: Schema, depth: number): unknown[] {
  const minItems = typeof schema.minItems === 'number' ? Math.min(schema.minItems, 10) : 0;
  const items = schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items) ? (schema.items as Schema) : {};
  return Array.from({ length: minItems }, () => valueFor(items, root, depth + 1));
}

function stringFor(schema: Schema): string {
  const example = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  let value = example ?? 'toolrun';
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) value = value.padEnd(Math.min(schema.minLength, 10_000), 'x');
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  return value;
}

function numberFor(schema: Schema, type: 'number' | 'integer'): number {
  let value = 1;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - 1;
  return type === 'integer' ? Math.ceil(value) : value;
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`); anything else is left as it is. */
function resolveRef(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops < 10; hops += 1) {
    const target = current.$ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Schema)[decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~')] : undefined), root);
    if (!target || typeof target !== 'object') break;
    current = target as Schema;
  }
  return current;
}

/**
 * The calls a run makes: the `--call TOOL ARGS` ones as given, then with `--call-all` every other
 * listed tool with generated arguments (marked generated; skipped with the reason when none valid).
 */
export function planCalls(tools: Record<string, unknown>[], given: { tool: string; arguments: Record<string, unknown> }[], callAll: boolean, protocolVersion?: string): PlannedCall[] {
  const planned: PlannedCall[] = given.map((call) => ({ tool: call.tool, arguments: call.arguments, generated: false }));
  if (!callAll) return planned;
  const givenNames = new Set(given.map((call) => call.tool));
  for (const tool of tools) {
    if (typeof tool.name !== 'string' || givenNames.has(tool.name)) continue;
    givenNames.add(tool.name);
    const generated = generateArguments(tool.inputSchema, protocolVersion);
    if ('arguments' in generated) planned.push({ tool: tool.name, arguments: generated.arguments, generated: true });
    else planned.push({ tool: tool.name, arguments: {}, generated: true, skipped: generated.reason });
  }
  return planned;
}
