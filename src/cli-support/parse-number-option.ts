import { InvalidArgumentError } from 'commander';
import { MAX_TIMER_MS, MAX_TIMER_TEXT } from '../config/max-timer-ms.js';

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

/** A TCP port (--callback-port): 1 to 65535. */
export function parsePort(value: string): number {
  const number = parsePositiveInteger(value);
  if (number > 65_535) throw new InvalidArgumentError(`expected a port from 1 to 65535, got '${value}'.`);
  return number;
}

/** A timeout in ms (--timeout): a positive whole number a timer can wait for. */
export function parseTimerMilliseconds(value: string): number {
  const number = parsePositiveInteger(value);
  if (number > MAX_TIMER_MS) throw new InvalidArgumentError(`expected at most ${MAX_TIMER_TEXT}.`);
  return number;
}
