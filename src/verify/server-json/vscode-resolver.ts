/**
 * VS Code's own turn of a server.json package or remote into an MCP server config, ported line for
 * line from `AbstractCommonMcpManagementService.getMcpServerConfigurationFromManifest` in microsoft/vscode
 * src/vs/platform/mcp/common/mcpManagementService.ts @ 9d8f249284c0dd934446cd012179819db6d8e11d (the
 * same algorithm @ 022dd59b). Its quirks are kept on purpose (they are what users get): `{id}` is
 * replaced at its first occurrence only (String.replace with a string), npx gets no `-y`, runtimeHint
 * and a package's transport are ignored, only remotes[0] is used, a remote URL is copied verbatim.
 * Each `${input:id}` is a prompt VS Code shows at install; `declaredAt`/`isRequired` are toolrun's
 * additions, to say where the prompt comes from.
 */
import type { InputWithVariables, KeyValueInput, ServerJsonArgument, ServerJsonInput, ServerJsonPackage, ServerJsonTransport } from './server-json-shape.js';

export const VSCODE_RESOLVER_SOURCE = 'microsoft/vscode src/vs/platform/mcp/common/mcpManagementService.ts@9d8f249284c0dd934446cd012179819db6d8e11d';

/** VS Code's IMcpServerVariable (McpServerVariableType PROMPT = 'promptString', PICK = 'pickString'). */
export interface VsCodeInputVariable {
  id: string;
  type: 'promptString' | 'pickString';
  description: string;
  password: boolean;
  default?: string;
  options?: string[];
  /** toolrun: the JSON path of what declared it (`packages[0].environmentVariables[1]`). */
  declaredAt: string;
  /** toolrun: the declaration's isRequired (VS Code never reads it). */
  isRequired: boolean;
}

/** VS Code's config: McpServerType LOCAL = 'stdio', REMOTE = 'http'. Empty args/env/headers are undefined, as VS Code writes them. */
export type VsCodeServerConfig = { type: 'stdio'; command: string; args?: string[]; env?: Record<string, string> } | { type: 'http'; url: string; headers?: Record<string, string> };

export interface VsCodeComposition {
  config: VsCodeServerConfig;
  inputs?: VsCodeInputVariable[];
  notices: string[];
}

/** VS Code's `RegistryType` → `getCommandName`: anything else is used as the command itself. */
const COMMAND_OF: Record<string, string> = { npm: 'npx', oci: 'docker', pypi: 'uvx', nuget: 'dnx' };

/** A package as VS Code installs it (the one of `packageType`, else the first). */
export function composePackageAsVsCode(pkg: ServerJsonPackage, at: string): VsCodeComposition {
  const args: string[] = [];
  const inputs: VsCodeInputVariable[] = [];
  const env: Record<string, string> = {};
  const notices: string[] = [];
  const docker = pkg.registryType === 'oci';
  if (docker) args.push('run', '-i', '--rm');
  if (pkg.runtimeArguments?.length) {
    const result = processArguments(pkg.runtimeArguments, `${at}.runtimeArguments`);
    args.push(...result.args);
    inputs.push(...result.variables);
    notices.push(...result.notices);
  }
  if (pkg.environmentVariables?.length) {
    const result = processKeyValueInputs(pkg.environmentVariables, `${at}.environmentVariables`);
    inputs.push(...result.variables);
    for (const [name, value] of Object.entries(result.inputs)) {
      env[name] = value;
      // docker gets the name only: the container inherits the value from docker's own environment.
      if (docker) args.push('-e', name);
    }
  }
  const versioned = (separator: string) => (pkg.version ? `${pkg.identifier}${separator}${pkg.version}` : pkg.identifier);
  if (pkg.registryType === 'npm') args.push(versioned('@'));
  else if (pkg.registryType === 'pypi') args.push(versioned('=='));
  else if (docker) args.push(versioned(':'));
  else if (pkg.registryType === 'nuget') {
    args.push(versioned('@'), '--yes');
    if (pkg.packageArguments?.length) args.push('--');
  }
  if (pkg.packageArguments?.length) {
    const result = processArguments(pkg.packageArguments, `${at}.packageArguments`);
    args.push(...result.args);
    inputs.push(...result.variables);
    notices.push(...result.notices);
  }
  const command = COMMAND_OF[pkg.registryType] ?? pkg.registryType;
  return {
    notices,
    config: { type: 'stdio', command, args: args.length ? args : undefined, env: Object.keys(env).length ? env : undefined },
    inputs: inputs.length ? inputs : undefined,
  };
}

/** A remote as VS Code installs it: its URL as written, its headers. */
export function composeRemoteAsVsCode(remote: ServerJsonTransport, at: string): VsCodeComposition {
  const { inputs, variables } = processKeyValueInputs(remote.headers ?? [], `${at}.headers`);
  return { config: { type: 'http', url: remote.url ?? '', headers: Object.keys(inputs).length ? inputs : undefined }, inputs: variables.length ? variables : undefined, notices: [] };
}

function getVariables(variableInputs: Record<string, ServerJsonInput>, at: string): VsCodeInputVariable[] {
  return Object.entries(variableInputs).map(([key, value]) => ({
    id: key,
    type: value.choices ? 'pickString' : 'promptString',
    description: value.description ?? '',
    password: !!value.isSecret,
    default: value.default,
    options: value.choices,
    declaredAt: `${at}.variables.${key}`,
    isRequired: value.isRequired === true,
  }));
}

function replaceVariables(value: string, variables: VsCodeInputVariable[]): string {
  let replaced = value;
  for (const variable of variables) replaced = replaced.replace(`{${variable.id}}`, `\${input:${variable.id}}`);
  return replaced;
}

function processKeyValueInputs(keyValueInputs: readonly KeyValueInput[], at: string): { inputs: Record<string, string>; variables: VsCodeInputVariable[] } {
  const inputs: Record<string, string> = {};
  const variables: VsCodeInputVariable[] = [];
  keyValueInputs.forEach((input, index) => {
    const inputVariables = input.variables ? getVariables(input.variables, `${at}[${index}]`) : [];
    let value = input.value || '';
    if (inputVariables.length) {
      // Explicit variables win, whatever the input's own description says.
      value = replaceVariables(value, inputVariables);
      variables.push(...inputVariables);
    } else if (!value && (input.description || input.choices || input.default !== undefined)) {
      variables.push({
        id: input.name,
        type: input.choices ? 'pickString' : 'promptString',
        description: input.description ?? '',
        password: !!input.isSecret,
        default: input.default,
        options: input.choices,
        declaredAt: `${at}[${index}]`,
        isRequired: input.isRequired === true,
      });
      value = `\${input:${input.name}}`;
    }
    inputs[input.name] = value;
  });
  return { inputs, variables };
}

function processArguments(argumentsList: readonly ServerJsonArgument[], at: string): { args: string[]; variables: VsCodeInputVariable[]; notices: string[] } {
  const args: string[] = [];
  const variables: VsCodeInputVariable[] = [];
  const notices: string[] = [];
  argumentsList.forEach((arg, index) => {
    const where = `${at}[${index}]`;
    const argVariables = arg.variables ? getVariables(arg.variables, where) : [];
    const prompt = (id: string): VsCodeInputVariable => ({
      id,
      type: 'promptString',
      description: arg.description ?? '',
      password: false,
      default: arg.default,
      declaredAt: where,
      isRequired: arg.isRequired === true,
    });
    if (arg.type === 'positional') {
      if (arg.value) {
        args.push(replaceVariables(arg.value, argVariables));
        variables.push(...argVariables);
      } else if (arg.valueHint && (arg.description || arg.default !== undefined)) {
        variables.push(prompt(arg.valueHint));
        args.push(`\${input:${arg.valueHint}}`);
      } else {
        args.push(arg.valueHint ?? '');
      }
    } else if (arg.type === 'named') {
      if (!arg.name) {
        notices.push(`Named argument is missing a name. ${JSON.stringify(arg)}`);
        return;
      }
      args.push(arg.name);
      if (arg.value) {
        args.push(replaceVariables(arg.value, argVariables));
        variables.push(...argVariables);
      } else if (arg.description || arg.default !== undefined) {
        const id = arg.name.replace(/^--?/, '');
        variables.push(prompt(id));
        args.push(`\${input:${id}}`);
      }
    }
  });
  return { args, variables, notices };
}

/** The placeholders of an InputWithVariables, for rules that look at them. */
export function placeholdersOf(input: InputWithVariables): string[] {
  return [...(input.value ?? '').matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]);
}

/**
 * The whole of getMcpServerConfigurationFromManifest: a remote when asked for one (remotes[0]),
 * else the package of `packageType`, else the first package; none → VS Code's own error.
 */
export function composeManifestAsVsCode(manifest: { packages?: ServerJsonPackage[]; remotes?: ServerJsonTransport[] }, packageType: string): VsCodeComposition {
  if (packageType === 'remote' && manifest.remotes?.length) return composeRemoteAsVsCode(manifest.remotes[0], 'remotes[0]');
  const index = Math.max(0, manifest.packages?.findIndex((pkg) => pkg.registryType === packageType) ?? -1);
  const serverPackage = manifest.packages?.[index];
  if (!serverPackage) throw new Error('No server package found');
  return composePackageAsVsCode(serverPackage, `packages[${index}]`);
}
