import { InvalidArgumentError } from 'commander';

/** Commander argParser for options such as --timeout <ms> and -n <count>. */
export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < 1) throw new InvalidArgumentError(`expected a positive whole number, got '${value}'.`);
  return number;
}

export function parseNonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number)) throw new InvalidArgumentError(`expected a whole number (0 or more), got '${value}'.`);
  return number;
}

export function parsePositiveNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) throw new InvalidArgumentError(`expected a positive number, got '${value}'.`);
  return number;
}
