import { InvalidArgumentError } from 'commander';

/** A repeatable `--option name=value` (complete's --context, verify's --input and --user-config): the pairs so far, this one added. */
export function collectNameValue(word: string, previous: Record<string, string>): Record<string, string> {
  const at = word.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`'${word}' is not name=value`);
  return { ...previous, [word.slice(0, at)]: word.slice(at + 1) };
}
