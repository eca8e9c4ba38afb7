export function generateBuiltinValidators(): Promise<string>;
