import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { namesProtoProperty, swapProtoInSchema, validateSwapped } from '../schema/proto-safe-validation.js';
import { collectingAjvLogger } from '../schema/schema-warnings.js';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

// As src/schema: lenient about vendor keywords, formats checked, every error kept. Meta-validation is
// done explicitly below: whether the schema is valid JSON Schema is the very question here.
const AJV_OPTIONS = { strict: false, validateFormats: true, validateSchema: false, allErrors: true, logger: collectingAjvLogger } as const;

type Dialect = 'draft-07' | '2019-09' | '2020-12';
const instances = new Map<Dialect, Ajv>();

function newAjv(dialect: Dialect): Ajv {
  if (dialect === '2020-12') return addFormats(new Ajv2020(AJV_OPTIONS) as unknown as Ajv);
  if (dialect === '2019-09') return addFormats(new Ajv2019(AJV_OPTIONS) as unknown as Ajv);
  return addFormats(new Ajv(AJV_OPTIONS));
}

/**
 * The dialect a tool's schema is written in: its `$schema`, else the revision's default — 2020-12
 * from 2025-11-25 on (basic#json-schema-usage); earlier revisions named none and their SDKs used draft-07.
 */
export function schemaDialect(schema: Record<string, unknown>, protocolVersion: string): Dialect | { unsupported: string } {
  const declared = schema.$schema;
  if (typeof declared !== 'string') return protocolVersion >= '2025-11-25' ? '2020-12' : 'draft-07';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (/draft-0[67]/.test(declared)) return 'draft-07';
  return { unsupported: declared };
}

export type SchemaValidator = (value: unknown) => ErrorObject[] | undefined;

export type CompiledSchema = { validator: SchemaValidator; dialect: Dialect } | { problem: string; unsupportedDialect?: boolean };

/** Meta-validates a schema against its dialect and compiles it; a problem is one line naming where. */
export function compileToolSchema(schema: Record<string, unknown>, protocolVersion: string): CompiledSchema {
  const dialect = schemaDialect(schema, protocolVersion);
  if (typeof dialect === 'object') return { problem: `its $schema ${JSON.stringify(dialect.unsupported)} is a dialect toolrun cannot check`, unsupportedDialect: true };
  const { $schema: _declared, ...body } = schema;
  let ajv = instances.get(dialect) ?? newAjv(dialect);
  instances.set(dialect, ajv);
  if (!ajv.validateSchema(body)) return { problem: `it is not valid JSON Schema ${dialect}: ${describeSchemaErrors(ajv.errors ?? [])}` };
  const proto = namesProtoProperty(body);
  const target = proto ? (swapProtoInSchema(body) as Record<string, unknown>) : body;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(target);
  } catch (error) {
    // Two tools may give their schemas the same $id; one Ajv keeps each id once.
    if (!/already exists/.test((error as Error).message)) return { problem: `it does not compile: ${(error as Error).message}` };
    ajv = newAjv(dialect);
    try {
      validate = ajv.compile(target);
    } catch (again) {
      return { problem: `it does not compile: ${(again as Error).message}` };
    }
  }
  const validator: SchemaValidator = proto ? (value) => validateSwapped(validate, value) : (value) => (validate(value) ? undefined : (validate.errors ?? []));
  return { validator, dialect };
}

function describeSchemaErrors(errors: ErrorObject[]): string {
  const first = errors[0];
  if (!first) return 'unknown error';
  return `${first.instancePath || '(root)'} ${first.message ?? ''}`.trim();
}

/** The first validation error as a path and a message: `/city must be string`. */
export function firstValidationError(errors: ErrorObject[]): { path: string; message: string } {
  const first = errors[0];
  if (!first) return { path: '', message: 'is not valid' };
  const missing = first.keyword === 'required' ? `/${String((first.params as { missingProperty?: string }).missingProperty)}` : '';
  return { path: `${first.instancePath}${missing}`, message: first.message ?? 'is not valid' };
}
