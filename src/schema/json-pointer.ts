/** The value a JSON Pointer (RFC 6901, as Ajv's instancePath gives it) names in `value`; undefined when the path leaves the document. */
export function valueAtPointer(value: unknown, pointer: string): unknown {
  let node = value;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** `path` is `parent` or a pointer below it. */
export function isPointerWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}
