import { pathSegment, sameJson, type ApiChange } from './api-change.js';

/**
 * Which way values flow through a schema. Input (a tool's arguments): the client writes, the server
 * reads, so accepting less breaks clients. Output (structuredContent): the server writes, the client
 * reads, so promising less (a field gone, a field no longer always there) or sending more kinds of
 * value (a wider type, a new enum value) breaks them.
 */
export type Direction = 'input' | 'output';

type Schema = Record<string, unknown>;

const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
/** Bounds that accept less as they grow, and those that accept less as they shrink. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Keywords that document a schema and never change what it accepts. */
const DOCUMENTATION = ['title', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly'];
const HANDLED = new Set(['type', 'enum', 'const', 'description', 'properties', 'required', 'items', 'additionalProperties', ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...DOCUMENTATION]);

/**
 * The changes between two versions of one schema (a tool's inputSchema or outputSchema, or a part of
 * it), descending into object properties and array items. `what` names what a property of this
 * schema is: an argument (input) or an output field (output).
 */
export function diffSchema(before: unknown, after: unknown, path: string, direction: Direction, rootWhat: ApiChange['what']): ApiChange[] {
  const changes: ApiChange[] = [];
  compareNode(before, after, path, direction, rootWhat, changes);
  return changes;
}

function compareNode(before: unknown, after: unknown, path: string, direction: Direction, what: ApiChange['what'], changes: ApiChange[]): void {
  if (sameJson(before, after)) return;
  if (!isSchema(before) || !isSchema(after)) {
    // A boolean schema (true/false) or something that is no schema: compared as a whole.
    changes.push({ kind: 'changed', what, path, breaking: true, before, after, reason: 'schema replaced by one of another form (not classified; treated as breaking)' });
    return;
  }
  const fieldWhat = direction === 'input' ? 'argument' : 'outputField';
  // Schema-wide or schema-less: a narrower or wider type than before.
  const typeChange = compareTypes(before, after, direction);
  if (typeChange) {
    changes.push({ kind: 'changed', what, path, ...typeChange });
    // A type changed to an unrelated one: its properties and items mean something else now; the type change says it all.
    if (typeChange.unrelated) return;
  }
  for (const change of compareEnums(before, after, direction)) changes.push({ kind: 'changed', what, path, ...change });
  if (before.description !== after.description) {
    changes.push({ kind: 'changed', what: 'description', path: `${path}.description`, breaking: false, before: before.description, after: after.description, reason: 'description changed' });
  }
  compareProperties(before, after, path, direction, fieldWhat, changes);
  if (before.items !== undefined || after.items !== undefined) compareNode(before.items ?? {}, after.items ?? {}, `${path}.items`, direction, what, changes);
  compareAdditionalProperties(before, after, path, direction, what, changes);
  compareBounds(before, after, path, direction, what, changes);
  for (const keyword of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (HANDLED.has(keyword) || sameJson(before[keyword], after[keyword])) continue;
    changes.push({
      kind: 'changed',
      what,
      path: `${path}${pathSegment(keyword)}`,
      breaking: false,
      before: before[keyword],
      after: after[keyword],
      reason: `"${keyword}" changed (not classified; review it)`,
    });
  }
  for (const keyword of DOCUMENTATION) {
    if (sameJson(before[keyword], after[keyword])) continue;
    changes.push({
      kind: 'changed',
      what: 'field',
      path: `${path}${pathSegment(keyword)}`,
      breaking: false,
      before: before[keyword],
      after: after[keyword],
      reason: `"${keyword}" changed (documentation only)`,
    });
  }
}

function compareProperties(before: Schema, after: Schema, path: string, direction: Direction, what: ApiChange['what'], changes: ApiChange[]): void {
  const propsBefore = asSchemaMap(before.properties);
  const propsAfter = asSchemaMap(after.properties);
  const requiredBefore = requiredOf(before);
  const requiredAfter = requiredOf(after);
  const noun = direction === 'input' ? 'argument' : 'output field';
  for (const name of new Set([...Object.keys(propsBefore), ...Object.keys(propsAfter)])) {
    const at = `${path}.properties${pathSegment(name)}`;
    const wasRequired = requiredBefore.has(name);
    const isRequired = requiredAfter.has(name);
    if (!Object.hasOwn(propsAfter, name)) {
      changes.push({
        kind: 'removed',
        what,
        path: at,
        breaking: true,
        reason:
          direction === 'input'
            ? 'argument removed: clients that send it are rejected (additionalProperties: false) or have it silently ignored'
            : 'output field removed: clients that read it get nothing',
      });
    } else if (!Object.hasOwn(propsBefore, name)) {
      const breaking = direction === 'input' && isRequired;
      const reason =
        direction === 'input'
          ? isRequired
            ? 'new required argument: clients that do not send it are rejected'
            : 'new optional argument'
          : isRequired
            ? 'new output field, always present'
            : 'new optional output field';
      changes.push({ kind: 'added', what, path: at, breaking, reason });
    } else {
      compareNode(propsBefore[name], propsAfter[name], at, direction, what, changes);
      if (wasRequired === isRequired) continue;
      // Input: required now means a client that leaves it out is rejected. Output: optional now means a client may no longer find it.
      const breaking = direction === 'input' ? isRequired : !isRequired;
      const reason = isRequired
        ? direction === 'input'
          ? 'argument made required: clients that leave it out are rejected'
          : 'output field made required (always present now)'
        : direction === 'input'
          ? 'argument made optional'
          : 'output field made optional: clients that rely on it may not find it';
      changes.push({ kind: 'changed', what, path: at, breaking, before: wasRequired ? 'required' : 'optional', after: isRequired ? 'required' : 'optional', reason });
    }
  }
  // Required names without a property of their own (allowed by JSON Schema): a new one is still a new required argument.
  for (const name of requiredAfter) {
    if (requiredBefore.has(name) || Object.hasOwn(propsAfter, name) || Object.hasOwn(propsBefore, name)) continue;
    changes.push({
      kind: 'added',
      what,
      path: `${path}.properties${pathSegment(name)}`,
      breaking: direction === 'input',
      reason: direction === 'input' ? `new required ${noun}: clients that do not send it are rejected` : `new required ${noun}`,
    });
  }
}

interface Classified {
  breaking: boolean;
  before: unknown;
  after: unknown;
  reason: string;
}

/** `type` as a set of JSON types; no `type` accepts every type. `number` includes `integer`. */
function compareTypes(before: Schema, after: Schema, direction: Direction): (Classified & { unrelated?: boolean }) | undefined {
  const typesBefore = typesOf(before);
  const typesAfter = typesOf(after);
  const narrower = isSubset(typesAfter, typesBefore);
  const wider = isSubset(typesBefore, typesAfter);
  if (narrower && wider) return undefined;
  const shown = { before: before.type ?? 'any', after: after.type ?? 'any' };
  // number includes integer: shown as "number", as a schema author writes it.
  const label = (types: string[]) => (types.length === JSON_TYPES.length ? 'any' : types.filter((type) => type !== 'integer' || !types.includes('number')).join('|'));
  const from = `${label(typesBefore)} to ${label(typesAfter)}`;
  if (narrower) {
    return direction === 'input'
      ? { breaking: true, ...shown, reason: `type narrowed from ${from}: values of the dropped type are rejected` }
      : { breaking: false, ...shown, reason: `type narrowed from ${from}` };
  }
  if (wider) {
    return direction === 'input'
      ? { breaking: false, ...shown, reason: `type widened from ${from}` }
      : { breaking: true, ...shown, reason: `type widened from ${from}: clients may get a type they do not expect` };
  }
  return { breaking: true, unrelated: !typesBefore.some((type) => isSubset([type], typesAfter)), ...shown, reason: `type changed from ${from}` };
}

function typesOf(schema: Schema): string[] {
  const declared = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : JSON_TYPES;
  const types = new Set(declared.filter((type): type is string => typeof type === 'string'));
  if (types.has('number')) types.add('integer');
  return [...types].sort();
}

function isSubset(inner: string[], outer: string[]): boolean {
  return inner.every((type) => outer.includes(type));
}

/** `enum` (or `const`, an enum of one): a value gone accepts less; a value added accepts more. */
function compareEnums(before: Schema, after: Schema, direction: Direction): Classified[] {
  const valuesBefore = enumOf(before);
  const valuesAfter = enumOf(after);
  if (!valuesBefore && !valuesAfter) return [];
  const shown = { before: valuesBefore ?? 'any value', after: valuesAfter ?? 'any value' };
  if (!valuesBefore) {
    return [direction === 'input' ? { breaking: true, ...shown, reason: 'enum added: only its values are accepted now' } : { breaking: false, ...shown, reason: 'enum added' }];
  }
  if (!valuesAfter) {
    return [
      direction === 'input'
        ? { breaking: false, ...shown, reason: 'enum removed: any value is accepted' }
        : { breaking: true, ...shown, reason: 'enum removed: clients may get values they do not expect' },
    ];
  }
  const removed = valuesBefore.filter((value) => !valuesAfter.some((other) => sameJson(value, other)));
  const added = valuesAfter.filter((value) => !valuesBefore.some((other) => sameJson(value, other)));
  const list = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');
  const changes: Classified[] = [];
  if (removed.length > 0) {
    changes.push(
      direction === 'input'
        ? { breaking: true, ...shown, reason: `enum narrowed: ${list(removed)} no longer accepted` }
        : { breaking: false, ...shown, reason: `enum narrowed: ${list(removed)} no longer sent` },
    );
  }
  if (added.length > 0) {
    changes.push(
      direction === 'input'
        ? { breaking: false, ...shown, reason: `enum widened: ${list(added)} accepted` }
        : { breaking: true, ...shown, reason: `enum widened: clients may get ${list(added)}, which they do not expect` },
    );
  }
  return changes;
}

function enumOf(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  return Object.hasOwn(schema, 'const') ? [schema.const] : undefined;
}

/** additionalProperties: false closes an object to names it does not list; absent, true or a schema leaves it open. */
function compareAdditionalProperties(before: Schema, after: Schema, path: string, direction: Direction, what: ApiChange['what'], changes: ApiChange[]): void {
  if (sameJson(before.additionalProperties, after.additionalProperties)) return;
  const closedBefore = before.additionalProperties === false;
  const closedAfter = after.additionalProperties === false;
  const at = `${path}.additionalProperties`;
  const shown = { before: before.additionalProperties, after: after.additionalProperties };
  if (!closedBefore && closedAfter) {
    const breaking = direction === 'input';
    changes.push({
      kind: 'changed',
      what,
      path: at,
      breaking,
      ...shown,
      reason: breaking ? 'additional properties no longer accepted: clients sending other names are rejected' : 'no additional properties any more',
    });
  } else if (closedBefore && !closedAfter) changes.push({ kind: 'changed', what, path: at, breaking: false, ...shown, reason: 'additional properties now allowed' });
  else if (isSchema(before.additionalProperties) && isSchema(after.additionalProperties)) compareNode(before.additionalProperties, after.additionalProperties, at, direction, what, changes);
  else changes.push({ kind: 'changed', what, path: at, breaking: false, ...shown, reason: 'additionalProperties changed (not classified; review it)' });
}

/** minimum, maxLength and the like: a bound added or tightened accepts less; removed or loosened, more. */
function compareBounds(before: Schema, after: Schema, path: string, direction: Direction, what: ApiChange['what'], changes: ApiChange[]): void {
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const was = before[keyword];
    const is = after[keyword];
    if (was === is) continue;
    const lower = LOWER_BOUNDS.includes(keyword);
    const tighter = typeof is === 'number' && (typeof was !== 'number' || (lower ? is > was : is < was));
    const looser = typeof was === 'number' && (typeof is !== 'number' || (lower ? is < was : is > was));
    if (!tighter && !looser) continue;
    // Input accepting less breaks clients; output sending more than promised does.
    const breaking = direction === 'input' ? tighter : looser;
    const reason = `${keyword} ${was === undefined ? 'added' : is === undefined ? 'removed' : `${was} → ${is}`}: ${tighter ? 'accepts fewer values' : 'accepts more values'}`;
    changes.push({ kind: 'changed', what, path: `${path}.${keyword}`, breaking, before: was, after: is, reason });
  }
}

function requiredOf(schema: Schema): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
}

function asSchemaMap(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
