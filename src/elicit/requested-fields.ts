/** A choice of an enum field: the value sent, and the label shown (a `oneOf` const's title, or the value). */
export interface FieldChoice {
  value: string;
  label: string;
}

/**
 * One field of an elicitation's `requestedSchema` (a flat object of primitive properties, per the
 * protocol), as a person or a script answers it: its kind, whether it is required, its default.
 */
export interface ElicitField {
  name: string;
  /** `title`, else the name: what a person is shown. */
  label: string;
  description?: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  default?: unknown;
  /** For `choice` (one of) and `choices` (any of). */
  choices?: FieldChoice[];
}

/** The fields a requested schema asks for, in its order. Unknown shapes are strings (what a person types). */
export function requestedFields(schema: unknown): ElicitField[] {
  const record = (typeof schema === 'object' && schema !== null ? schema : {}) as { properties?: Record<string, unknown>; required?: unknown };
  const required = new Set(Array.isArray(record.required) ? record.required.filter((name): name is string => typeof name === 'string') : []);
  return Object.entries(record.properties ?? {}).map(([name, property]) =>
    fieldOf(name, (typeof property === 'object' && property !== null ? property : {}) as Record<string, unknown>, required.has(name)),
  );
}

function fieldOf(name: string, property: Record<string, unknown>, required: boolean): ElicitField {
  const field: ElicitField = { name, label: typeof property.title === 'string' ? property.title : name, required, kind: 'string' };
  if (typeof property.description === 'string') field.description = property.description;
  if (property.default !== undefined) field.default = property.default;
  const single = choicesOf(property);
  if (single) return { ...field, kind: 'choice', choices: single };
  if (property.type === 'array') {
    const multiple = choicesOf((property.items ?? {}) as Record<string, unknown>);
    if (multiple) return { ...field, kind: 'choices', choices: multiple };
  }
  if (property.type === 'number' || property.type === 'integer' || property.type === 'boolean') return { ...field, kind: property.type };
  return field;
}

/** `enum` (with the legacy `enumNames` as labels), or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(schema: Record<string, unknown>): FieldChoice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({ value: String(value), label: typeof names[index] === 'string' ? names[index] : String(value) }));
  }
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!branches || !branches.every((branch) => typeof branch === 'object' && branch !== null && 'const' in branch)) return undefined;
  return (branches as Array<{ const: unknown; title?: unknown }>).map((branch) => ({ value: String(branch.const), label: typeof branch.title === 'string' ? branch.title : String(branch.const) }));
}

/** The schema's `default`s, by field: what `--elicit accept` sends for the fields nobody answered. */
export function defaultsOf(fields: ElicitField[]): Record<string, unknown> {
  return Object.fromEntries(fields.flatMap((field) => (field.default === undefined ? [] : [[field.name, field.default]])));
}
