import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ArgsValidator } from './args-validator.js';
import { namesProtoProperty, swapProtoInSchema, validateSwapped } from './proto-safe-validation.js';
import { boundedRegExpEngine } from '../text/bounded-regex.js';
import { addSchemaWarnings, collectingAjvLogger, withSchemaWarnings } from './schema-warnings.js';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

// The same options as the MCP SDK's own AjvJsonSchemaValidator: lenient about unknown keywords
// (servers emit vendor keywords), formats checked, all errors collected for one complete message.
// validateSchema is off here because meta-validation costs ~25 ms per process; `checkSchema` does it
// where it matters (registration of config tools, `toolrun validate`).
// code.regExp: a schema's `pattern` comes from a server or a test file; it runs under a time limit (src/text/bounded-regex.ts).
const AJV_OPTIONS = { strict: false, validateFormats: true, validateSchema: false, allErrors: true, logger: collectingAjvLogger, code: { regExp: boundedRegExpEngine } } as const;

let draft07: Ajv | undefined;
let draft2020: Ajv | undefined;

function ajvFor(schema: Record<string, unknown>): Ajv {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12') || dialect.includes('2019-09')) return (draft2020 ??= addFormats(new Ajv2020(AJV_OPTIONS) as unknown as Ajv));
  return (draft07 ??= addFormats(new Ajv(AJV_OPTIONS)));
}

/**
 * An Ajv for the MCP SDK's Client (it compiles every tool's outputSchema at tools/list): the SDK's own
 * options, with warnings collected instead of printed.
 */
export function createSdkAjv(): Ajv {
  return addFormats(new Ajv(AJV_OPTIONS));
}

// Validators by their schema's JSON text. Ajv's own cache is keyed by the schema object and holds it:
// a tool list fetched again (each in-process run, a holder or `serve` reconnecting, each elicitation)
// brings new objects, so without this each was compiled again (~1.5 ms a schema, more while cold) and
// kept for the life of the process. Bounded by the distinct schemas a process meets. What is compiled
// is a copy made from the text, never the caller's object (which checkSchema may have compiled already,
// so Ajv would give no warnings); Ajv's warnings (an unknown format) are kept with the validator and
// given again to the run that reuses it.
const compiledByText = new Map<string, { validator: ArgsValidator; warnings: string[] }>();

/** Compiles a tool's parameter schema once per distinct schema; throws when the schema itself is broken. */
export function compileArgsValidator(schema: Record<string, unknown>): ArgsValidator {
  const text = plainJsonText(schema);
  if (text === undefined) return compileNew(schema);
  const known = compiledByText.get(text);
  if (known) {
    addSchemaWarnings(known.warnings);
    return known.validator;
  }
  const { value: validator, warnings } = withSchemaWarnings(() => compileNew(JSON.parse(text) as Record<string, unknown>));
  compiledByText.set(text, { validator, warnings });
  return validator;
}

class NotPlainJson extends Error {}

/**
 * The schema as JSON text when JSON holds it exactly, else undefined: a value JSON would drop or change
 * (undefined, a function, NaN or Infinity, a RegExp, a Date, anything with toJSON or a prototype of its
 * own, as a library caller's schema may hold) would give two different schemas one text.
 */
function plainJsonText(schema: Record<string, unknown>): string | undefined {
  try {
    return JSON.stringify(schema, function (key, value: unknown) {
      const original: unknown = key === '' ? schema : (this as Record<string, unknown>)[key];
      if (original === null || typeof original === 'string' || typeof original === 'boolean') return value;
      if (typeof original === 'number' && Number.isFinite(original)) return value;
      if (typeof original === 'object' && (Array.isArray(original) || [Object.prototype, null].includes(Object.getPrototypeOf(original))) && !('toJSON' in original)) return value;
      throw new NotPlainJson();
    });
  } catch {
    // Not plain JSON, or a cycle: compiled each time, as any schema was before.
    return undefined;
  }
}

function compileNew(schema: Record<string, unknown>): ArgsValidator {
  if (namesProtoProperty(schema)) {
    const swapped: ValidateFunction = ajvFor(schema).compile(swapProtoInSchema(withoutDialect(schema)) as Record<string, unknown>);
    return (value) => {
      const errors = validateSwapped(swapped, value);
      return errors ? { valid: false, errors } : { valid: true };
    };
  }
  const validate: ValidateFunction = ajvFor(schema).compile(withoutDialect(schema));
  return (value) => (validate(value) ? { valid: true } : { valid: false, errors: validate.errors ?? [] });
}

/**
 * Checks that a schema is valid JSON Schema and compiles; returns a one-line problem or undefined.
 * Used for `registerTool` of user-written tools and by `toolrun validate` for every tool.
 */
export function checkSchema(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'parameters must be a JSON Schema object';
  const record = schema as Record<string, unknown>;
  const ajv = ajvFor(record);
  const stripped = withoutDialect(record);
  try {
    if (!ajv.validateSchema(stripped)) return (ajv.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`).join('; ');
    ajv.compile(stripped);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

// `$schema` picks the Ajv dialect above; ajv itself would look the URI up and fail for unknown ones.
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * The problem, if any, of a schema read as JSON Schema draft-07 whatever its `$schema` says: how VS
 * Code checks an MCP tool's inputSchema before it offers the tool (mcp lint's vscode target).
 */
export function draft07SchemaProblem(schema: Record<string, unknown>): string | undefined {
  const ajv = (draft07 ??= addFormats(new Ajv(AJV_OPTIONS)));
  if (ajv.validateSchema(withoutDialect(schema))) return undefined;
  return (ajv.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`).join('; ');
}
