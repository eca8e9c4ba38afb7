/**
 * The YAML and TOML parsers, loaded only when a Continue YAML or a Codex TOML file is there to read:
 * loading them costs ~30 ms, which `toolrun hosts` and `--host` would otherwise pay on every run
 * (most users have neither file). Readers stay synchronous: findHostFiles loads what the files it
 * found need before it reads them.
 */
type Yaml = typeof import('yaml');
type Toml = typeof import('smol-toml');

let yaml: Yaml | undefined;
let toml: Toml | undefined;

/** Loads the parsers the given files need (by extension). */
export async function loadParsersFor(paths: readonly string[]): Promise<void> {
  const loading: Promise<unknown>[] = [];
  if (!yaml && paths.some((path) => /\.ya?ml$/i.test(path))) loading.push(import('yaml').then((module) => (yaml = namedExports(module, 'YAMLParseError'))));
  if (!toml && paths.some((path) => /\.toml$/i.test(path))) loading.push(import('smol-toml').then((module) => (toml = namedExports(module, 'TomlError'))));
  await Promise.all(loading);
}

/** A CommonJS package imported dynamically from the bundle gives its exports as `default` only. */
function namedExports<T extends object>(module: T, probe: string): T {
  return probe in module ? module : (module as unknown as { default: T }).default;
}

export function yamlParser(): Yaml {
  if (!yaml) throw new Error('the YAML parser was not loaded (loadParsersFor) before a YAML host file was read');
  return yaml;
}

export function tomlParser(): Toml {
  if (!toml) throw new Error('the TOML parser was not loaded (loadParsersFor) before a TOML host file was read');
  return toml;
}
