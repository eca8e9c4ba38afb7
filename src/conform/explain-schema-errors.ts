/**
 * Ajv's errors for one value, made into what a person can act on: one line each, at the deepest path,
 * and a failed union (anyOf/oneOf: a content block, a result kind) said as the failures of the one
 * branch the value meant, not as every branch's complaint (a text block with a number for `text`
 * is one problem, not the 13 Ajv reports against image, audio, resource… as well).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isPointerWithin, valueAtPointer } from '../schema/json-pointer.js';
import { schemaNodeAt, type McpSchema } from './mcp-schemas.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/** A problem found, at an Ajv instance path (JSON pointer, `/tools/3/inputSchema`). */
export interface SchemaProblem {
  at: string;
  message: string;
}

/** Validates `value` and returns its problems (none when valid). */
export function explainValidation(schema: McpSchema, validate: ValidateFunction, value: unknown, base = ''): SchemaProblem[] {
  if (validate(value)) return [];
  return explainErrors(schema, [...(validate.errors ?? [])], value, base);
}

function explainErrors(schema: McpSchema, errors: ErrorObject[], value: unknown, base: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    const at = base + error.instancePath;
    const failedBranches = (error.keyword === 'anyOf' || error.keyword === 'oneOf') && Array.isArray(error.schema) && error.params.passingSchemas == null;
    if (!failedBranches) {
      problems.push({ at, message: messageOf(error) });
      continue;
    }
    // Ajv reports each branch's errors right before the union's own: drop them, and say what the
    // branch the value meant found instead.
    while (problems.length > 0 && isPointerWithin(problems[problems.length - 1].at, at)) problems.pop();
    problems.push(...explainBranch(schema, error, valueAtPointer(value, error.instancePath), at));
  }
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.at}\u0000${problem.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function explainBranch(schema: McpSchema, error: ErrorObject, value: unknown, at: string): SchemaProblem[] {
  const refs = (error.schema as Record<string, unknown>[]).map((branch) => (typeof branch?.$ref === 'string' ? branch.$ref : undefined));
  const validators = refs.map((ref) => (ref ? schema.validatorAt(ref) : undefined));
  // Inline branches have no name to re-check them by: Ajv's own line then (the MCP schemas name theirs).
  if (validators.some((validate) => !validate)) return [{ at, message: messageOf(error) }];
  const tried = refs.map((ref, index) => ({
    name: (ref as string).split('/').pop() as string,
    meant: discriminatorMatches(schema, ref as string, value),
    problems: explainValidation(schema, validators[index] as ValidateFunction, value, at),
  }));
  // A value that names no branch (`type: "bogus"` in a content block): that is the one problem.
  if (tried.every((branch) => branch.meant === false)) {
    const unknownKind = explainUnknownKind(schema, refs as string[], value, at);
    if (unknownKind) return [unknownKind];
  }
  // The branch whose constants the value carries (`type: "image"` → ImageContent) is the one it
  // meant; with none, the branch it misses by least.
  const meant = tried.filter((branch) => branch.meant === true);
  const notExcluded = tried.filter((branch) => branch.meant !== false);
  const pool = meant.length > 0 ? meant : notExcluded.length > 0 ? notExcluded : tried;
  const best = pool.reduce((a, b) => (b.problems.length < a.problems.length ? b : a));
  if (best.problems.length === 0) return [{ at, message: messageOf(error) }];
  return best.problems.map((problem) => (problem.message.includes(' (as ') ? problem : { ...problem, message: `${problem.message} (as ${best.name})` }));
}

/** The constant every branch has (`type`), when the value's differs from all of them. */
function explainUnknownKind(schema: McpSchema, refs: string[], value: unknown, at: string): SchemaProblem | undefined {
  const constantsOf = refs.map((ref) => {
    const node = schemaNodeAt(schema, ref) as { properties?: Record<string, { const?: unknown }> } | undefined;
    return new Map(Object.entries(node?.properties ?? {}).flatMap(([key, property]) => (property && 'const' in property ? [[key, property.const] as const] : [])));
  });
  const key = [...constantsOf[0].keys()].find((candidate) => constantsOf.every((constants) => constants.has(candidate)));
  if (key === undefined) return undefined;
  const allowed = [...new Set(constantsOf.map((constants) => JSON.stringify(constants.get(key))))];
  const found = (value as Record<string, unknown>)[key];
  return { at: `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `must be one of ${allowed.join(', ')}${found === undefined ? ` (has no '${key}')` : got(found)}` };
}

/** true: the value has every `const` property of the branch; false: one differs; undefined: the branch has none. */
function discriminatorMatches(schema: McpSchema, ref: string, value: unknown): boolean | undefined {
  const node = schemaNodeAt(schema, ref) as { properties?: Record<string, { const?: unknown }> } | undefined;
  const constants = Object.entries(node?.properties ?? {}).filter(([, property]) => property && 'const' in property);
  if (constants.length === 0 || typeof value !== 'object' || value === null) return undefined;
  return constants.every(([key, property]) => (value as Record<string, unknown>)[key] === property.const);
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}${got(error.data)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((allowed) => JSON.stringify(allowed)).join(', ')}${got(error.data)}`;
    case 'additionalProperties':
      return `must NOT have additional property '${String(params.additionalProperty)}'`;
    case 'type':
    case 'format':
      return `${error.message ?? error.keyword}${got(error.data)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

/** The value found, when it is short enough to quote in one line. */
function got(data: unknown): string {
  if (data === null || ['string', 'number', 'boolean'].includes(typeof data)) {
    const text = JSON.stringify(data);
    return ` (got ${text.length > 40 ? `${maskThenCut(text, 39)}…"` : text})`;
  }
  return Array.isArray(data) ? ' (got an array)' : typeof data === 'object' ? ' (got an object)' : '';
}

/** `/tools/3/inputSchema` under `result` → `result.tools[3].inputSchema` (the evidence path). */
export function toFramePath(prefix: string, pointer: string): string {
  let path = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) path += path ? `.${part}` : part;
    else path += `[${JSON.stringify(part)}]`;
  }
  return path;
}
