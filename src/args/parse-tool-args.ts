import { UsageError } from '../errors.js';

/** One `key=value` or `key:=json` word from the command line. */
export interface ArgWord {
  key: string;
  value: string;
  /** `key:=json`: the value is always JSON. */
  isJson: boolean;
}

/** Splits ARGS words into keys and values; throws UsageError naming the bad word and the fix. */
export function parseArgWords(words: string[]): ArgWord[] {
  return words.map((word) => {
    const equals = word.indexOf('=');
    if (equals === -1) throw new UsageError(`argument '${word}' is not key=value; write ${word}=<value>, or ${word}:=<json> for a JSON value`);
    const isJson = equals > 0 && word[equals - 1] === ':';
    const key = word.slice(0, isJson ? equals - 1 : equals);
    const value = word.slice(equals + 1);
    if (key === '') throw new UsageError(`argument '${word}' has no name before '${isJson ? ':=' : '='}'; write name${isJson ? ':=' : '='}${value}`);
    if (isJson) parseJsonValue(value, `'${key}' in '${word}'`, `quote strings inside the JSON: ${key}:='"text"'`);
    return { key, value, isJson };
  });
}

/** Parses JSON or throws UsageError saying where and how to fix it. */
export function parseJsonValue(text: string, where: string, fix: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`invalid JSON for ${where}: ${(error as Error).message}; ${fix}`);
  }
}
