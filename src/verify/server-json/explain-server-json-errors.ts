/**
 * Ajv's errors for a server.json made into findings a publisher can act on: the field as a JSON path
 * (`packages[0].version`), what is wrong with it and the fix. A failed union (an argument that is
 * positional or named, a transport that is stdio, sse or streamable-http) is said as the problems of
 * the branch whose `type` the value carries, not as every branch's complaint.
 */
import type { Ajv, ErrorObject } from 'ajv';
import { isPointerWithin, valueAtPointer } from '../../schema/json-pointer.js';
import { maskSecrets } from '../../secrets/mask-secrets.js';
import type { VerifyFinding } from '../verify-types.js';

interface Problem {
  pointer: string;
  message: string;
}

export function explainServerJsonErrors(ajv: Ajv, schemaUrl: string, errors: ErrorObject[], document: unknown, snakeCase: boolean): VerifyFinding[] {
  const seen = new Set<string>();
  return explain(ajv, schemaUrl, errors, document, '', snakeCase)
    .filter((problem) => (seen.has(problem.message) ? false : (seen.add(problem.message), true)))
    .map((problem) => ({ level: 'error', rule: 'schema', path: jsonPath(problem.pointer), message: problem.message, source: schemaUrl }));
}

function explain(ajv: Ajv, schemaUrl: string, errors: ErrorObject[], document: unknown, base: string, snakeCase: boolean): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors) {
    const pointer = base + error.instancePath;
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') {
      problems.push(...describe(error, pointer, snakeCase));
      continue;
    }
    // Ajv lists each branch's errors right before the union's own: drop them, then say the meant branch's.
    while (problems.length > 0 && isPointerWithin(problems[problems.length - 1].pointer, pointer)) problems.pop();
    problems.push(...explainUnion(ajv, schemaUrl, error, valueAtPointer(document, error.instancePath), pointer, snakeCase));
  }
  return problems;
}

function explainUnion(ajv: Ajv, schemaUrl: string, error: ErrorObject, value: unknown, pointer: string, snakeCase: boolean): Problem[] {
  const branches = Array.isArray(error.schema) ? (error.schema as Record<string, unknown>[]) : [];
  // PositionalArgument's own anyOf: [{required:[valueHint]},{required:[value]}].
  const requiredOnly = branches.map((branch) => (Object.keys(branch).length === 1 && Array.isArray(branch.required) ? (branch.required as string[]) : undefined));
  if (branches.length > 0 && requiredOnly.every(Boolean)) {
    const names = requiredOnly.map((names) => (names as string[]).map(fieldName(snakeCase)).join(' and '));
    return [{ pointer, message: `${jsonPath(pointer)} needs ${names.map((name) => `'${name}'`).join(' or ')}: add one` }];
  }
  const tried = branches.flatMap((branch) => {
    const validate = typeof branch.$ref === 'string' ? ajv.getSchema(`${schemaUrl}${branch.$ref}`) : undefined;
    if (!validate) return [];
    const problems = validate(value) ? [] : explain(ajv, schemaUrl, [...(validate.errors ?? [])], value, pointer, snakeCase);
    // A branch whose `type` the value does not carry is not the one it meant.
    const otherKind = (validate.errors ?? []).some((inner) => inner.instancePath === '/type' && (inner.keyword === 'enum' || inner.keyword === 'const'));
    return [{ name: (branch.$ref as string).split('/').pop() as string, problems, otherKind }];
  });
  if (tried.length === 0) return [{ pointer, message: `${jsonPath(pointer)} ${error.message ?? 'matches none of its allowed forms'}: fix it to match the schema` }];
  const meant = tried.filter((branch) => !branch.otherKind);
  if (meant.length === 0) {
    const kind = (value as Record<string, unknown> | null)?.type;
    return [
      {
        pointer: `${pointer}/type`,
        message: `${jsonPath(`${pointer}/type`)} ${JSON.stringify(kind ?? null)} is not a kind this field allows (${tried.map((branch) => branch.name).join(', ')}): use one of them`,
      },
    ];
  }
  return meant.reduce((best, branch) => (branch.problems.length < best.problems.length ? branch : best)).problems;
}

function describe(error: ErrorObject, pointer: string, snakeCase: boolean): Problem[] {
  const params = error.params as Record<string, unknown>;
  const at = jsonPath(pointer);
  const data = error.data;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const field = `${pointer}/${missing}`;
      return [{ pointer: field, message: `${jsonPath(field)} is missing: add it (the schema requires it)` }];
    }
    case 'not':
      // Every dated schema's Package.version is {"not":{"const":"latest"}}.
      if ((error.schema as Record<string, unknown> | undefined)?.const === 'latest') return [{ pointer, message: `${at}: 'latest' is not allowed: give the exact version published` }];
      return [{ pointer, message: `${at}: ${quote(data)} is not allowed here: change it` }];
    case 'pattern':
      return [{ pointer, message: `${at}: ${quote(data)} does not match ${String(params.pattern)}: ${patternFix(pointer)}` }];
    case 'maxLength':
      return [{ pointer, message: `${at} is ${String(data).length} characters, at most ${String(params.limit)} allowed: shorten it` }];
    case 'minLength':
      return [{ pointer, message: `${at} is shorter than ${String(params.limit)} characters: give a value` }];
    case 'type':
      return [{ pointer, message: `${at} must be ${String(params.type)} (got ${kindOf(data)}): change its type` }];
    case 'enum':
    case 'const': {
      const allowed = error.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue];
      return [{ pointer, message: `${at} is ${quote(data)}: use ${allowed.map((item) => JSON.stringify(item)).join(' or ')}` }];
    }
    case 'format':
      return [{ pointer, message: `${at}: ${quote(data)} is not a valid ${String(params.format)}: give an absolute URL or the form the schema names` }];
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const snake = fieldName(true)(extra);
      const hint =
        snakeCase && snake !== extra
          ? `the 2025-07-09 schema spells it ${snake}: rename it, or set "$schema" to a newer (camelCase) schema`
          : !snakeCase && extra.includes('_')
            ? 'snake_case is the 2025-07-09 schema\'s spelling: write it camelCase or set "$schema" to 2025-07-09'
            : 'remove it or check its spelling';
      return [{ pointer: `${pointer}/${extra}`, message: `${jsonPath(`${pointer}/${extra}`)} is not a field the schema allows: ${hint}` }];
    }
    default:
      return [{ pointer, message: `${at} ${error.message ?? `fails ${error.keyword}`}: fix it to match the schema` }];
  }
}

function patternFix(pointer: string): string {
  if (pointer === '/name') return 'use reverse-DNS namespace, one slash, then the name (io.github.owner/server)';
  if (pointer.endsWith('/fileSha256') || pointer.endsWith('/file_sha256')) return "give the file's sha256 as 64 lowercase hex digits";
  if (pointer.endsWith('/url')) return 'give an http(s):// URL';
  return 'change it to match';
}

const fieldName = (snakeCase: boolean) => (name: string) => (snakeCase ? name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : name);

/** `/packages/0/version` → `packages[0].version`; '' stays '' (the file as a whole). */
export function jsonPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

/** The value found, short, and masked when it looks like a secret (a finding is printed as it is). */
function quote(data: unknown): string {
  const text = maskSecrets(JSON.stringify(data) ?? String(data));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function kindOf(data: unknown): string {
  return data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data === 'object' ? 'an object' : `${typeof data} ${quote(data)}`;
}
