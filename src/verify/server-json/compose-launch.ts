/**
 * Each `packages[i]` and `remotes[i]` of a server.json → the launch VS Code composes for it
 * (vscode-resolver.ts), with the user's answers (`--input NAME=VALUE`) put where VS Code would ask,
 * and a finding wherever a host will do something other than the file seems to ask for.
 */
import type { ComposedLaunch, EntryKind, VerifyEntry, VerifyFinding } from '../verify-types.js';
import type { ServerJsonArgument, ServerJsonPackage, ServerJsonTransport } from './server-json-shape.js';
import { composePackageAsVsCode, composeRemoteAsVsCode, VSCODE_RESOLVER_SOURCE, type VsCodeComposition, type VsCodeInputVariable } from './vscode-resolver.js';

export interface ComposeOptions {
  /** The command's `--input NAME=VALUE`, by the id VS Code would prompt for (a variable, env or header name, a valueHint). */
  inputs: Record<string, string>;
}

/** An entry with its launch, plus the values marked secret in it (for the caller's masking, never printed). */
export interface ComposedEntry {
  entry: VerifyEntry;
  secretValues: string[];
}

const COMPOSED_AS = { host: 'vscode', source: VSCODE_RESOLVER_SOURCE };
const KINDS: readonly EntryKind[] = ['npm', 'pypi', 'oci', 'nuget', 'mcpb'];
const COMMAND_OF: Record<string, string> = { npm: 'npx', oci: 'docker', pypi: 'uvx', nuget: 'dnx' };

/** `packages[index]` as VS Code launches it; undefined for a registryType no host installs (a rule says so). */
export function composePackageLaunch(pkg: ServerJsonPackage, index: number, options: ComposeOptions): ComposedEntry | undefined {
  const at = `packages[${index}]`;
  const kind = KINDS.find((known) => known === pkg.registryType);
  if (!kind) return undefined;
  const label = `${kind} ${pkg.identifier}${pkg.version ? (kind === 'pypi' ? `==${pkg.version}` : kind === 'oci' ? `:${pkg.version}` : `@${pkg.version}`) : ''}`;
  if (kind === 'mcpb') {
    // VS Code downloads the bundle and reads its manifest.json (src/vs/platform/mcp/node/mcpManagementService.ts):
    // the command is inside the bundle, so nothing can be composed from server.json alone.
    const note: VerifyFinding = {
      level: 'note',
      rule: 'server-json/mcpb-launch-unknown',
      path: at,
      message: `${at} is a bundle: its launch is in the bundle's manifest.json; verify the .mcpb file itself to see it`,
      source: VSCODE_RESOLVER_SOURCE,
    };
    return { entry: { id: at, kind, label, composedAs: COMPOSED_AS, findings: [note] }, secretValues: [] };
  }
  const composition = composePackageAsVsCode(pkg, at);
  const findings = [
    ...ignoredPackageFields(pkg, at),
    ...composition.notices.map((notice) => ({
      level: 'warning' as const,
      rule: 'vscode/named-argument-skipped',
      path: at,
      message: `VS Code skips it: ${notice.split('.')[0].toLowerCase()}: give the argument a name`,
      source: VSCODE_RESOLVER_SOURCE,
    })),
  ];
  const resolved = resolveInputs(composition, pkg.environmentVariables ?? [], `${at}.environmentVariables`, options, findings);
  const config = composition.config as Extract<VsCodeComposition['config'], { type: 'stdio' }>;
  const launch: ComposedLaunch = {
    transport: 'stdio',
    command: config.command,
    args: (config.args ?? []).map(resolved.fill),
    env: Object.fromEntries(Object.entries(config.env ?? {}).map(([name, value]) => [name, resolved.fillNamed(name, value)])),
  };
  return { entry: { id: at, kind, label, composedAs: COMPOSED_AS, launch, findings }, secretValues: resolved.secretValues };
}

/** `remotes[index]` as VS Code connects to it (it only ever uses remotes[0]). */
export function composeRemoteLaunch(remote: ServerJsonTransport, index: number, options: ComposeOptions): ComposedEntry {
  const at = `remotes[${index}]`;
  const url = remote.url ?? '';
  const findings: VerifyFinding[] = [];
  if (index > 0)
    findings.push({
      level: 'warning',
      rule: 'vscode/remote-unused',
      path: at,
      message: `VS Code connects to remotes[0] only: ${at} is never used; put the remote you want hosts to use first`,
      source: VSCODE_RESOLVER_SOURCE,
    });
  const placeholders = [...url.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]);
  if (placeholders.length > 0) {
    findings.push({
      level: 'warning',
      rule: 'vscode/remote-url-template',
      path: `${at}.url`,
      message: `VS Code does not fill ${placeholders.map((name) => `{${name}}`).join(', ')} in a remote's URL: it connects to ${url} as written; give a concrete URL for hosts that do not substitute`,
      source: VSCODE_RESOLVER_SOURCE,
    });
  }
  const composition = composeRemoteAsVsCode(remote, at);
  const resolved = resolveInputs(composition, remote.headers ?? [], `${at}.headers`, options, findings);
  const config = composition.config as Extract<VsCodeComposition['config'], { type: 'http' }>;
  const transport = remote.type === 'sse' ? 'sse' : 'streamable-http';
  const launch: ComposedLaunch = { transport, url: config.url, headers: Object.fromEntries(Object.entries(config.headers ?? {}).map(([name, value]) => [name, resolved.fillNamed(name, value)])) };
  return { entry: { id: at, kind: 'remote', label: `remote ${url}`, composedAs: COMPOSED_AS, launch, findings }, secretValues: resolved.secretValues };
}

/**
 * Every `${input:id}` VS Code would prompt for, answered from `--input`, else its default; an
 * unanswered required one is an error. A variable VS Code leaves empty without asking (an env var or
 * header with no value, description, choices or default) is answered from `--input` too, with a warning.
 */
function resolveInputs(
  composition: VsCodeComposition,
  keyValues: readonly { name: string; value?: string; description?: string; choices?: string[]; default?: string; isRequired?: boolean; isSecret?: boolean; variables?: unknown }[],
  keyValuesAt: string,
  options: ComposeOptions,
  findings: VerifyFinding[],
) {
  const values = new Map<string, string>();
  const secretValues: string[] = [];
  for (const variable of composition.inputs ?? []) {
    if (values.has(variable.id)) continue;
    const value = answer(variable, options, findings);
    values.set(variable.id, value);
    if (variable.password && value) secretValues.push(value);
  }
  const silentlyEmpty = new Map<string, string>();
  keyValues.forEach((input, index) => {
    if (input.value || input.variables || input.description || input.choices || input.default !== undefined) return;
    const path = `${keyValuesAt}[${index}]`;
    const given = options.inputs[input.name];
    if (given !== undefined) {
      silentlyEmpty.set(input.name, given);
      if (input.isSecret && given) secretValues.push(given);
      findings.push({
        level: 'warning',
        rule: 'vscode/no-prompt',
        path,
        message: `${path} (${input.name}) has no value, description or default: VS Code sets it to "" and never asks; add a description so hosts prompt for it`,
        source: VSCODE_RESOLVER_SOURCE,
      });
    } else if (input.isRequired) {
      findings.push({
        level: 'error',
        rule: 'server-json/required-input-missing',
        path,
        message: `${path} (${input.name}) is required and has no default: give it with --input ${input.name}=… (and add a description so hosts prompt for it)`,
      });
    }
  });
  const fill = (text: string): string => text.replace(/\$\{input:([^}]+)\}/g, (whole, id: string) => values.get(id) ?? whole);
  return {
    secretValues,
    fill,
    /** An env var or header: the one VS Code leaves "" takes its --input. */
    fillNamed: (name: string, text: string) => (text === '' && silentlyEmpty.has(name) ? (silentlyEmpty.get(name) as string) : fill(text)),
  };
}

function answer(variable: VsCodeInputVariable, options: ComposeOptions, findings: VerifyFinding[]): string {
  const given = options.inputs[variable.id];
  if (given !== undefined) return given;
  if (variable.default !== undefined) return variable.default;
  const path = variable.declaredAt;
  if (variable.isRequired)
    findings.push({ level: 'error', rule: 'server-json/required-input-missing', path, message: `${path} (${variable.id}) is required and has no default: give it with --input ${variable.id}=…` });
  else
    findings.push({
      level: 'warning',
      rule: 'server-json/input-unanswered',
      path,
      message: `${path} (${variable.id}) has no default and no --input: composed as empty; give it with --input ${variable.id}=…`,
    });
  return '';
}

/** Fields the file sets that VS Code's resolver never reads: say what happens instead. */
function ignoredPackageFields(pkg: ServerJsonPackage, at: string): VerifyFinding[] {
  const findings: VerifyFinding[] = [];
  const warn = (rule: string, path: string, message: string) => findings.push({ level: 'warning', rule, path, message, source: VSCODE_RESOLVER_SOURCE });
  const command = COMMAND_OF[pkg.registryType];
  // Open request: microsoft/vscode#291479 "Please honor the RuntimeHint parameter".
  if (pkg.runtimeHint && pkg.runtimeHint !== command)
    warn('vscode/runtime-hint-ignored', `${at}.runtimeHint`, `VS Code ignores runtimeHint '${pkg.runtimeHint}': it runs ${command}; a user who needs ${pkg.runtimeHint} must edit the entry`);
  if (pkg.transport && pkg.transport.type !== 'stdio')
    warn(
      'vscode/package-transport-ignored',
      `${at}.transport`,
      `VS Code ignores transport '${pkg.transport.type}' for a package: it starts the process and speaks stdio to it; serve stdio, or publish the URL under remotes`,
    );
  const sides: [string, ServerJsonArgument[] | undefined][] = [
    ['runtimeArguments', pkg.runtimeArguments],
    ['packageArguments', pkg.packageArguments],
  ];
  for (const [side, list] of sides) {
    (list ?? []).forEach((arg, index) => {
      const path = `${at}.${side}[${index}]`;
      if (arg.isRepeated) warn('vscode/repeated-ignored', `${path}.isRepeated`, `VS Code ignores isRepeated: it passes ${path} once; list each value as its own argument`);
      const prompts = !arg.value && (arg.description || arg.default !== undefined) && (arg.type === 'named' ? !!arg.name : !!arg.valueHint);
      if (arg.type === 'positional' && !arg.value && !prompts && arg.valueHint)
        warn('vscode/value-hint-literal', path, `VS Code passes the valueHint '${arg.valueHint}' literally and never asks for it: add a description or default so hosts prompt, or give a value`);
      else if (arg.isRequired && !arg.value && !prompts)
        warn('vscode/required-ignored', `${path}.isRequired`, `VS Code does not check isRequired on arguments: ${path} is passed without a value; add a description so hosts prompt for it`);
      if (arg.isSecret && !arg.value && prompts)
        warn('vscode/secret-argument-shown', `${path}.isSecret`, `VS Code asks for ${path} in clear (isSecret is ignored on arguments): pass secrets as environment variables`);
    });
  }
  return findings;
}
