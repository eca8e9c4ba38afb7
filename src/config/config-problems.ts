import type { ErrorObject } from 'ajv';

/** One thing wrong with a config file, at a JSON path such as `mcpServers.zwave.args[1]`. */
export interface ConfigProblem {
  path: string;
  message: string;
}

/** The `x-messages` of a schema node: keyword (or `required:PROPERTY`) → message template. */
type MessageTemplates = Record<string, string>;

export const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** `mcpServers.zwave`, or `mcpServers["my server"]` for a key that is not an identifier. */
export const childPath = (parent: string, key: string): string => {
  const quoted = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return parent === '' ? quoted.replace(/^\./, '') : `${parent}${quoted}`;
};

/**
 * toolrun's own message for each error Ajv found against toolrun.schema.json. The texts live in the
 * schema (`x-messages`, beside what they describe), filled in here: {found} is the value's type,
 * {json} the value as JSON, {text} as text, {allowed} the allowed values, {name} a property name,
 * {data.type} the entry's "type". Errors of `if` and `propertyNames` (their inner error already said it) are left out, as is
 * anything reported twice at one path.
 */
export function configProblems(errors: ErrorObject[], root: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'propertyNames') continue;
    const problem = describeError(error, root);
    if (seen.has(problem.path)) continue;
    seen.add(problem.path);
    problems.push(problem);
  }
  return problems;
}

function describeError(error: ErrorObject, root: unknown): ConfigProblem {
  const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
  const container = jsonPath(root, segments);
  const templates = ((error.parentSchema as { 'x-messages'?: MessageTemplates } | undefined)?.['x-messages'] ?? {}) as MessageTemplates;
  const data = valueAt(root, segments);
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) {
    return { path: childPath(container, propertyName), message: fill(templates[error.keyword] ?? error.message ?? 'is not allowed', { name: propertyName }) };
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    const template = templates[`required:${missing}`] ?? templates.required ?? `needs "${missing}"`;
    return { path: childPath(container, missing), message: fill(template, { entry: data }) };
  }
  const template = templates[error.keyword];
  const path = container === '' ? '$' : container;
  if (template === undefined) return { path, message: error.message ?? `fails ${error.keyword}` };
  return { path, message: fill(template, { value: data, allowed: (error.params as { allowedValues?: unknown[] }).allowedValues }) };
}

function fill(template: string, context: { value?: unknown; entry?: unknown; allowed?: unknown[]; name?: string }): string {
  return template.replace(/\{([\w.-]+)\}/g, (whole, key: string) => {
    switch (key) {
      case 'found':
        return typeName(context.value);
      case 'json':
        return String(JSON.stringify(context.value));
      case 'text':
        return String(context.value);
      case 'allowed':
        return (context.allowed ?? []).map((value) => JSON.stringify(value)).join(', ');
      case 'name':
        return context.name ?? '';
      case 'name-dashed':
        return (context.name ?? '').replaceAll(':', '-');
      case 'data.type':
        return String((context.entry as { type?: unknown } | undefined)?.type ?? 'remote');
      default:
        return whole;
    }
  });
}

/** `tools[2].implementation`: an index in an array, a key in an object. */
function jsonPath(root: unknown, segments: string[]): string {
  let path = '';
  let value = root;
  for (const segment of segments) {
    path = Array.isArray(value) ? `${path}[${segment}]` : childPath(path, segment);
    value = (value as Record<string, unknown> | undefined)?.[segment];
  }
  return path;
}

function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) value = (value as Record<string, unknown> | undefined)?.[segment];
  return value;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
