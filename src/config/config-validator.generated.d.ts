import type { ErrorObject } from 'ajv';

type GeneratedValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
declare const validate: GeneratedValidator;
export default validate;
