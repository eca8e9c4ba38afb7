import type { ErrorObject } from 'ajv';

type GeneratedValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
export declare const get_current_datetime: GeneratedValidator;
export declare const math_eval: GeneratedValidator;
export declare const echo: GeneratedValidator;
