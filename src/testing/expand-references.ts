import { rememberExpandedVariable } from '../secrets/mask-secrets.js';

/**
 * `${name}` in a step's arguments: a value an earlier step saved, else the environment variable.
 * A string that is one reference and nothing else takes the saved value as it is (a number stays a
 * number); one inside a longer string is written into it as text.
 */
const REFERENCE = /\$\{([A-Za-z_][\w-]*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][\w-]*)\}$/;

export function referencesIn(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1]!);
}

export function expandReferences(value: unknown, saved: ReadonlyMap<string, unknown>, env: NodeJS.ProcessEnv): unknown {
  const lookup = (name: string): unknown => {
    if (saved.has(name)) return saved.get(name);
    const fromEnv = env[name];
    // ${GITHUB_TOKEN} in a step's args: masked wherever the request is shown (failures, JUnit, --json).
    if (fromEnv !== undefined) rememberExpandedVariable(name, fromEnv);
    return fromEnv;
  };
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1]!);
    return value.replace(REFERENCE, (_, name: string) => {
      const found = lookup(name);
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => expandReferences(item, saved, env));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandReferences(item, saved, env)]));
  return value;
}
