import { pathSegment, sameJson, type ApiChange } from './api-change.js';
import { diffSchema } from './schema-diff.js';
import { diffSkills } from './skills-diff.js';
import { SECTIONS, type ApiItem, type ApiSource, type SectionName } from './snapshot-types.js';

export interface ApiDiff {
  /** Breaking changes first, then the others, each group in the order of the lists. */
  changes: ApiChange[];
  breaking: boolean;
  /** Lists one side does not have (a recording that never asked for them): not compared. */
  notCompared: Array<{ list: SectionName; missingFrom: string }>;
}

const ITEM_WHAT = { tools: 'tool', resources: 'resource', resourceTemplates: 'resourceTemplate', prompts: 'prompt' } as const;

/**
 * What changed from API `before` to API `after` (SPEC §16), each change classified: would a client
 * written against `before` break against `after`? The rules are the manual's (docs/conform-and-diff.md, "API snapshots and breaking changes").
 */
export function diffApis(before: ApiSource, after: ApiSource): ApiDiff {
  const changes: ApiChange[] = [];
  const notCompared: ApiDiff['notCompared'] = [];
  for (const { list, key } of SECTIONS) {
    const itemsBefore = before.snapshot[list];
    const itemsAfter = after.snapshot[list];
    if (!itemsBefore || !itemsAfter) {
      notCompared.push({ list, missingFrom: !itemsBefore ? before.label : after.label });
      continue;
    }
    const byKey = (items: ApiItem[]) => new Map(items.map((item) => [String(item[key]), item]));
    const mapBefore = byKey(itemsBefore);
    const mapAfter = byKey(itemsAfter);
    const what = ITEM_WHAT[list];
    for (const [name, item] of mapBefore) {
      const path = `${list}${pathSegment(name)}`;
      const next = mapAfter.get(name);
      if (!next) changes.push({ kind: 'removed', what, path, breaking: true, reason: `${describeItem(what)} removed: clients that use it fail` });
      else changes.push(...diffItem(list, item, next, path));
    }
    for (const name of mapAfter.keys()) {
      if (!mapBefore.has(name)) changes.push({ kind: 'added', what, path: `${list}${pathSegment(name)}`, breaking: false, reason: `new ${describeItem(what)}` });
    }
  }
  // The Skills extension's entries (a side without them declares no skills: an empty list).
  changes.push(...diffSkills(before.snapshot.skills, after.snapshot.skills));
  const ordered = [...changes.filter((change) => change.breaking), ...changes.filter((change) => !change.breaking)];
  return { changes: ordered, breaking: ordered.some((change) => change.breaking), notCompared };
}

function describeItem(what: string): string {
  return what === 'resourceTemplate' ? 'resource template' : what;
}

function diffItem(list: SectionName, before: ApiItem, after: ApiItem, path: string): ApiChange[] {
  if (sameJson(before, after)) return [];
  const changes: ApiChange[] = [];
  const handled = new Set<string>();
  if (list === 'tools') {
    handled.add('inputSchema').add('outputSchema');
    changes.push(...diffSchema(before.inputSchema, after.inputSchema, `${path}.inputSchema`, 'input', 'inputSchema'));
    if (before.outputSchema !== undefined && after.outputSchema === undefined) {
      changes.push({
        kind: 'removed',
        what: 'outputSchema',
        path: `${path}.outputSchema`,
        breaking: true,
        reason: 'output schema removed: clients reading structuredContent lose every field it promised',
      });
    } else if (before.outputSchema === undefined && after.outputSchema !== undefined) {
      changes.push({ kind: 'added', what: 'outputSchema', path: `${path}.outputSchema`, breaking: false, reason: 'new output schema' });
    } else if (before.outputSchema !== undefined) {
      changes.push(...diffSchema(before.outputSchema, after.outputSchema, `${path}.outputSchema`, 'output', 'outputSchema'));
    }
  }
  if (list === 'prompts') {
    handled.add('arguments');
    changes.push(...diffPromptArguments(before.arguments, after.arguments, `${path}.arguments`));
  }
  if ((list === 'resources' || list === 'resourceTemplates') && before.mimeType !== after.mimeType) {
    handled.add('mimeType');
    changes.push({
      kind: 'changed',
      what: 'field',
      path: `${path}.mimeType`,
      breaking: true,
      before: before.mimeType,
      after: after.mimeType,
      reason: 'mimeType changed: clients that read the content by its type read something else',
    });
  }
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (handled.has(field) || sameJson(before[field], after[field])) continue;
    changes.push({
      kind: before[field] === undefined ? 'added' : after[field] === undefined ? 'removed' : 'changed',
      what: field === 'description' ? 'description' : 'field',
      path: `${path}${pathSegment(field)}`,
      breaking: false,
      before: before[field],
      after: after[field],
      reason: `${field} ${before[field] === undefined ? 'added' : after[field] === undefined ? 'removed' : 'changed'} (does not change what clients send or get)`,
    });
  }
  return changes;
}

interface PromptArgument {
  name: string;
  required?: boolean;
  [field: string]: unknown;
}

/** A prompt's arguments, by name, with the rules of a tool's input: a new required one or one removed breaks clients. */
function diffPromptArguments(before: unknown, after: unknown, path: string): ApiChange[] {
  const byName = (value: unknown) =>
    new Map((Array.isArray(value) ? value : []).filter((arg): arg is PromptArgument => typeof (arg as PromptArgument)?.name === 'string').map((arg) => [arg.name, arg]));
  const argsBefore = byName(before);
  const argsAfter = byName(after);
  const changes: ApiChange[] = [];
  for (const [name, arg] of argsBefore) {
    const at = `${path}${pathSegment(name)}`;
    const next = argsAfter.get(name);
    if (!next) {
      changes.push({ kind: 'removed', what: 'promptArgument', path: at, breaking: true, reason: 'prompt argument removed: clients that send it are rejected or have it ignored' });
      continue;
    }
    if (Boolean(arg.required) !== Boolean(next.required)) {
      changes.push({
        kind: 'changed',
        what: 'promptArgument',
        path: at,
        breaking: Boolean(next.required),
        before: arg.required ? 'required' : 'optional',
        after: next.required ? 'required' : 'optional',
        reason: next.required ? 'prompt argument made required: clients that leave it out are rejected' : 'prompt argument made optional',
      });
    }
    for (const field of new Set([...Object.keys(arg), ...Object.keys(next)])) {
      if (field === 'required' || field === 'name' || sameJson(arg[field], next[field])) continue;
      changes.push({
        kind: 'changed',
        what: field === 'description' ? 'description' : 'field',
        path: `${at}${pathSegment(field)}`,
        breaking: false,
        before: arg[field],
        after: next[field],
        reason: `${field} changed`,
      });
    }
  }
  for (const [name, arg] of argsAfter) {
    if (argsBefore.has(name)) continue;
    changes.push({
      kind: 'added',
      what: 'promptArgument',
      path: `${path}${pathSegment(name)}`,
      breaking: Boolean(arg.required),
      reason: arg.required ? 'new required prompt argument: clients that do not send it are rejected' : 'new optional prompt argument',
    });
  }
  return changes;
}
