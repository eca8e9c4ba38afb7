import { ConfigError, type ConfigPlace } from '../errors.js';
import { rememberExpandedVariable } from '../secrets/mask-secrets.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Variables only a host can fill in: VS Code's prompts (${input:id}), commands, settings, and its
// predefined variables. Passing them on as literal text would give the server "${input:token}" as a token.
const HOST_ONLY =
  /^(?:(?:input|command|config):.*|workspaceFolder(?:Basename)?(?::.*)?|userHome|pathSeparator|\/|file|fileBasename|fileDirname|fileExtname|relativeFile|lineNumber|selectedText|execPath|defaultBuildTask)$/s;

/**
 * How deep `${A:-${B:-…}}` may nest. Real defaults nest one or two levels; the limit is checked while
 * the reference is read, before any default is expanded, so no input can recurse deeper than this.
 */
export const MAX_REFERENCE_NESTING = 16;

/** One `${…}` found in a string: what is inside the braces, and where it ends. */
interface Reference {
  /** The text between `${` and its matching `}`. */
  body: string;
  /** Index just past the closing `}`. */
  end: number;
}

/**
 * Expands `${VAR}`, `${VAR:-default}` and VS Code's `${env:VAR}` (the default applies when VAR is
 * unset or empty, as in the shell; it may itself contain `${OTHER}`). `$${` is a literal `${`.
 * An unset variable with no default is a ConfigError naming it and where it is used.
 */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, where: ConfigPlace): string {
  return expandText(
    value,
    (name, fallback) => {
      const current = env[name];
      if (current !== undefined && current !== '') return remembered(name, current);
      if (fallback !== undefined) return remembered(name, expandEnv(fallback, env, where));
      if (current === '') return '';
      const fix = where.hostWithoutDefaults ? `Export it where ${where.hostWithoutDefaults} runs (export ${name}=...)` : `Export it (export ${name}=...) or give a default: \${${name}:-value}`;
      throw new ConfigError(`environment variable ${name} is not set. ${fix}.`, { code: 'unset-variable', place: where });
    },
    where,
  );
}

/** The value a variable gave, remembered as a secret when its name says so (SPEC §8: masked wherever it is printed). */
function remembered(name: string, value: string): string {
  rememberExpandedVariable(name, value);
  return value;
}

/** Names of the variables a string refers to (defaults included), for `doctor` and `validate`. */
export function listEnvReferences(value: string): string[] {
  const names: string[] = [];
  try {
    expandText(
      value,
      (name, fallback) => {
        names.push(name);
        if (fallback !== undefined) names.push(...listEnvReferences(fallback));
        return '';
      },
      { file: null },
    );
  } catch {
    // A malformed reference: resolving the server reports it with its place; here there is nothing to list.
  }
  return names;
}

/** Walks `value`, copying text and replacing each reference by what `resolve` returns. */
function expandText(value: string, resolve: (name: string, fallback: string | undefined) => string, where: ConfigPlace): string {
  if (!value.includes('${')) return value;
  let out = '';
  let index = 0;
  while (index < value.length) {
    const dollar = value.indexOf('$', index);
    if (dollar === -1) break;
    out += value.slice(index, dollar);
    if (value.startsWith('$${', dollar)) {
      // The escape: `$${X}` is the literal text `${X}`.
      out += '${';
      index = dollar + 3;
      continue;
    }
    if (!value.startsWith('${', dollar)) {
      out += '$';
      index = dollar + 1;
      continue;
    }
    const reference = readReference(value, dollar, where);
    const whole = value.slice(dollar, reference.end);
    if (HOST_ONLY.test(reference.body)) {
      throw new ConfigError(`${whole} is a VS Code variable that only VS Code can fill in; toolrun does not support it. Put the value in the config, or use \${NAME} with an environment variable.`, {
        code: 'host-only-variable',
        place: where,
      });
    }
    const separator = reference.body.indexOf(':-');
    let name = separator === -1 ? reference.body : reference.body.slice(0, separator);
    const fallback = separator === -1 ? undefined : reference.body.slice(separator + 2);
    if (name.startsWith('env:')) name = name.slice(4);
    if (!NAME.test(name)) throw new ConfigError(`'${whole}' is not a valid variable reference; use \${NAME} or \${NAME:-default} (write $\${ for a literal \${).`, { place: where });
    out += resolve(name, fallback);
    index = reference.end;
  }
  return out + value.slice(index);
}

/** The `${…}` starting at `start`, with nested `${…}` in a default counted, so its own `}` is found. */
function readReference(value: string, start: number, where: ConfigPlace): Reference {
  let depth = 0;
  for (let index = start + 2; index < value.length; index++) {
    const opens = value.startsWith('$${', index) ? 3 : value.startsWith('${', index) ? 2 : 0;
    if (opens > 0) {
      // A nested reference, or a literal `$${…}` inside a default: either way its `}` is its own.
      if (++depth >= MAX_REFERENCE_NESTING) {
        throw new ConfigError(`'${value.slice(start, start + 40)}…' nests \${…} more than ${MAX_REFERENCE_NESTING} levels deep; a default that deep is a mistake. Simplify it`, {
          code: 'reference-too-deep',
          place: where,
        });
      }
      index += opens - 1;
      continue;
    }
    if (value[index] === '}') {
      if (depth === 0) return { body: value.slice(start + 2, index), end: index + 1 };
      depth--;
    }
  }
  throw new ConfigError(`'${value.slice(start, start + 40)}' has no closing '}'; write \${NAME}, or $\${ for a literal \${.`, { place: where });
}
