/**
 * A server.json validated offline against the published schema its `$schema` names (draft-07, with
 * Ajv as the registry's own examples check does: docs/reference/server-json/scripts/validate-examples.ts
 * in modelcontextprotocol/registry uses Ajv + ajv-formats, strict off). Each schema problem becomes one
 * finding at its JSON path with the fix.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { VerifyFinding } from '../verify-types.js';
import { explainServerJsonErrors } from './explain-server-json-errors.js';
import { loadServerSchema, NEWEST_SERVER_SCHEMA_DATE, serverSchemaUrl, shippedDateOf, type ServerSchemaDate } from './shipped-server-schemas.js';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export interface ServerJsonValidation {
  /** The URL of the schema validated against. */
  schema: string;
  date: ServerSchemaDate;
  findings: VerifyFinding[];
}

const ajvByDate = new Map<ServerSchemaDate, { ajv: Ajv; validate: ValidateFunction }>();

function validatorFor(date: ServerSchemaDate): { ajv: Ajv; validate: ValidateFunction } {
  const known = ajvByDate.get(date);
  if (known) return known;
  // verbose: each error carries its schema node, so a failed union can be explained by the branch the value meant.
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true, verbose: true }));
  const validate = ajv.compile(loadServerSchema(date));
  const made = { ajv, validate };
  ajvByDate.set(date, made);
  return made;
}

/** The schema a document's `$schema` names, or the newest shipped with a warning saying so. */
export function pickServerSchema(document: unknown): { date: ServerSchemaDate; findings: VerifyFinding[] } {
  const named = typeof document === 'object' && document !== null ? (document as Record<string, unknown>).$schema : undefined;
  const date = typeof named === 'string' ? shippedDateOf(named) : undefined;
  if (date) return { date, findings: [] };
  const newest = serverSchemaUrl(NEWEST_SERVER_SCHEMA_DATE);
  const why = typeof named === 'string' ? `$schema ${JSON.stringify(named)} is not a published server.json schema toolrun knows` : 'no $schema';
  return {
    date: NEWEST_SERVER_SCHEMA_DATE,
    findings: [
      { level: 'warning', rule: 'server-json/schema-unknown', path: '$schema', message: `${why}: validated against the newest, ${newest}; set "$schema" to the one you wrote it for`, source: newest },
    ],
  };
}

/** Validates a parsed server.json (as written: snake_case for 2025-07-09) against the schema it names. */
export function validateServerJson(document: unknown): ServerJsonValidation {
  const { date, findings } = pickServerSchema(document);
  const schema = serverSchemaUrl(date);
  const { ajv, validate } = validatorFor(date);
  if (!validate(document)) findings.push(...explainServerJsonErrors(ajv, schema, [...(validate.errors ?? [])], document, date === '2025-07-09'));
  return { schema, date, findings };
}
