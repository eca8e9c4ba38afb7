import type { ErrorObject } from 'ajv';

/** A compiled check of a tool's arguments against its input schema. */
export type ArgsValidator = (value: unknown) => { valid: true } | { valid: false; errors: ErrorObject[] };
