import { ConfigError } from '../errors.js';

// ${VAR}, ${VAR:-default}, and VS Code's ${env:VAR}. A default cannot contain '}'.
const VARIABLE = /\$\{(env:)?([^}:]*?)(?::-([^}]*))?\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Variables only a host can fill in: VS Code's prompts (${input:id}), commands, settings, and its
// predefined variables. Passing them on as literal text would give the server "${input:token}" as a token.
const HOST_ONLY = /\$\{(?:(?:input|command|config):[^}]*|workspaceFolder(?:Basename)?(?::[^}]*)?|userHome|pathSeparator|\/|file|fileBasename|fileDirname|fileExtname|relativeFile|lineNumber|selectedText|execPath|defaultBuildTask)\}/;

/**
 * Expands `${VAR}` and `${VAR:-default}` (the default applies when VAR is unset or empty, as in
 * the shell). An unset variable with no default is a ConfigError naming it and where it is used.
 */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, where: string): string {
  const hostOnly = value.match(HOST_ONLY);
  if (hostOnly) throw new ConfigError(`${where}: ${hostOnly[0]} is a VS Code variable that only VS Code can fill in; toolrun does not support it. Put the value in the config, or use \${NAME} with an environment variable.`, { code: 'host-only-variable' });
  return value.replace(VARIABLE, (whole, _envPrefix: string | undefined, name: string, fallback: string | undefined) => {
    if (!NAME.test(name)) throw new ConfigError(`${where}: '${whole}' is not a valid variable reference; use \${NAME} or \${NAME:-default}.`);
    const current = env[name];
    if (current !== undefined && current !== '') return current;
    if (fallback !== undefined) return fallback;
    if (current === '') return '';
    throw new ConfigError(`${where}: environment variable ${name} is not set. Export it (export ${name}=...) or give a default: \${${name}:-value}.`, { code: 'unset-variable' });
  });
}

/** Names of the variables a string refers to, for `doctor` and `validate`. */
export function listEnvReferences(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((match) => match[2]!);
}

