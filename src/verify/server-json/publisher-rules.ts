/**
 * The offline rules mcp-publisher (the MCP Registry) applies beyond the schema: a file that passes the
 * schema can still be refused at publish. Each rule cites where the registry states it; the checks
 * that need the network (the package exists, its mcpName, the OCI label, the bundle URL answers) are
 * not here.
 */
import type { VerifyFinding } from '../verify-types.js';
import type { ServerJson, ServerJsonArgument, ServerJsonPackage } from './server-json-shape.js';

const VALIDATORS = 'modelcontextprotocol/registry internal/validators/validators.go';
const registrySource = (file: string, commit: string) => `modelcontextprotocol/registry internal/validators/registries/${file}@${commit}`;

// validators.go: namespacePattern + "/" + namePartPattern.
const SERVER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.-]*[a-zA-Z0-9]\/[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$/;
// validators.go looksLikeVersionRange: comparator, hyphen and OR ranges, dotted wildcards.
const COMPARATOR_RANGE = /^\s*(?:\^|~|>=|<=|>|<|=)\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*$/;
const HYPHEN_RANGE = /^\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s-\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*$/;
const OR_RANGE = /^\s*(?:v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*)(?:\|\|\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*)+$/;
const DOTTED_WILDCARD = /^\s*(?:v?\d+|x|X|\*)(?:\.(?:\d+|x|X|\*)){1,2}(?:-[0-9A-Za-z.-]+)?\s*$/;

export function looksLikeVersionRange(version: string): boolean {
  const trimmed = version.trim();
  if (!trimmed) return false;
  if (COMPARATOR_RANGE.test(trimmed) || HYPHEN_RANGE.test(trimmed) || OR_RANGE.test(trimmed)) return true;
  return DOTTED_WILDCARD.test(trimmed) && /[xX*]/.test(trimmed);
}

/** Every publisher rule over a schema-shaped server.json (camelCase). */
export function checkPublisherRules(server: ServerJson): VerifyFinding[] {
  const findings: VerifyFinding[] = [];
  const error = (rule: string, path: string, message: string, source = VALIDATORS) => findings.push({ level: 'error', rule: `server-json/${rule}`, path, message, source });
  const name = typeof server.name === 'string' ? server.name : '';
  if (name) {
    const slashes = name.split('/').length - 1;
    if (slashes === 0) error('invalid-server-name', 'name', `name '${name}' has no namespace: write it as reverse-DNS namespace/name (io.github.owner/server)`);
    else if (slashes > 1) error('invalid-server-name', 'name', `name '${name}' has ${slashes} slashes: use exactly one, between namespace and name`);
    else if (!SERVER_NAME.test(name))
      error(
        'invalid-server-name',
        'name',
        `name '${name}': namespace and name must each be 2 characters or more, start and end with a letter or digit (dots, hyphens inside; underscores too in the name): rename it`,
      );
  }
  checkVersion(server.version, 'version', error);
  (server.packages ?? []).forEach((pkg, index) => checkPackage(pkg, `packages[${index}]`, error));
  checkRemoteHosts(server, name, findings);
  return findings;
}

type Report = (rule: string, path: string, message: string, source?: string) => void;

function checkVersion(version: unknown, path: string, error: Report): void {
  if (typeof version !== 'string') return;
  if (version === 'latest') error('version-latest', path, `${path}: 'latest' is reserved: give the exact version published`);
  else if (looksLikeVersionRange(version)) error('version-range', path, `${path}: '${version}' is a range: give the one exact version published`);
}

function checkPackage(pkg: ServerJsonPackage, at: string, error: Report): void {
  if (typeof pkg.identifier === 'string' && /\s/.test(pkg.identifier))
    error('package-name-has-spaces', `${at}.identifier`, `${at}.identifier '${pkg.identifier}' contains a space: give the package name as the registry spells it`);
  checkVersion(pkg.version, `${at}.version`, error);
  const sides: [string, ServerJsonArgument[] | undefined][] = [
    ['runtimeArguments', pkg.runtimeArguments],
    ['packageArguments', pkg.packageArguments],
  ];
  for (const [side, list] of sides) (list ?? []).forEach((arg, index) => checkNamedArgument(arg, `${at}.${side}[${index}]`, error));
  checkPackageTransport(pkg, at, error);
  checkRegistryType(pkg, at, error);
}

function checkNamedArgument(arg: ServerJsonArgument, path: string, error: Report): void {
  if (arg.type !== 'named') return;
  const name = arg.name ?? '';
  if (!name) return error('named-argument-name-required', `${path}.name`, `${path} is a named argument with no name: add "name" (e.g. "--port")`);
  // "--directory <absolute_path>" or "--port 8080": a value or a description embedded in the name.
  if (/[<> $]/.test(name)) error('invalid-named-argument-name', `${path}.name`, `${path}.name '${name}' has a space, <, > or $: put only the flag in name and the rest in value or valueHint`);
  if (arg.value && arg.value.startsWith(name))
    error('argument-value-starts-with-name', `${path}.value`, `${path}.value starts with the argument's name '${name}': hosts pass the name themselves; give only the value`);
  if (arg.default && arg.default.startsWith(name)) error('argument-default-starts-with-name', `${path}.default`, `${path}.default starts with the argument's name '${name}': give only the value`);
}

/** validatePackageTransport: stdio has no url; http transports need one, and its `{vars}` must be the package's own. */
function checkPackageTransport(pkg: ServerJsonPackage, at: string, error: Report): void {
  const transport = pkg.transport;
  if (!transport || typeof transport.type !== 'string') return;
  const path = `${at}.transport.url`;
  if (transport.type === 'stdio') {
    if (transport.url) error('stdio-transport-url-not-empty', path, `${path} is set for a stdio transport: remove it (a stdio server has no URL)`);
    return;
  }
  if (!transport.url) return error('transport-url-required', path, `${path} is missing: a ${transport.type} transport needs the URL the started package listens on`);
  // collectAvailableVariables: env var names, argument names and valueHints.
  const declared = new Set<string>([
    ...(pkg.environmentVariables ?? []).map((env) => env.name),
    ...[...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])].flatMap((arg) => [arg.name, arg.valueHint].filter((item): item is string => !!item)),
  ]);
  for (const [, variable] of transport.url.matchAll(/\{([^{}]+)\}/g)) {
    if (!declared.has(variable))
      error('invalid-templated-url', path, `${path} uses {${variable}}, which the package does not declare: add an environment variable or argument named ${variable}, or write the value`);
  }
}

/** Publish-time checks per registry type that need no network (registries/*.go). */
function checkRegistryType(pkg: ServerJsonPackage, at: string, error: Report): void {
  switch (pkg.registryType) {
    case 'npm':
      if (!pkg.version) error('npm-version-required', `${at}.version`, `${at}.version is missing: npm packages need the exact version published`, registrySource('npm.go', '58e201e1'));
      if (pkg.fileSha256) error('npm-no-file-sha256', `${at}.fileSha256`, `${at}.fileSha256 is for bundles only: remove it from an npm package`, registrySource('npm.go', '58e201e1'));
      if (pkg.registryBaseUrl && pkg.registryBaseUrl !== 'https://registry.npmjs.org')
        error(
          'npm-registry-url',
          `${at}.registryBaseUrl`,
          `${at}.registryBaseUrl must be https://registry.npmjs.org (or left out) for the registry to accept it`,
          registrySource('npm.go', '58e201e1'),
        );
      break;
    case 'nuget':
      if (!pkg.version) error('nuget-version-required', `${at}.version`, `${at}.version is missing: NuGet packages need the exact version published`, registrySource('nuget.go', 'b2ac06d2'));
      if (pkg.fileSha256) error('nuget-no-file-sha256', `${at}.fileSha256`, `${at}.fileSha256 is for bundles only: remove it from a NuGet package`, registrySource('nuget.go', 'b2ac06d2'));
      break;
    case 'oci':
      // "include version in 'identifier' instead (e.g., 'docker.io/owner/image:1.0.0')".
      if (pkg.version)
        error(
          'oci-no-version',
          `${at}.version`,
          `${at}.version is not accepted for OCI images: put the tag in identifier (docker.io/owner/image:${pkg.version}) and remove version`,
          registrySource('oci.go', '90f9ee8a'),
        );
      if (pkg.registryBaseUrl)
        error(
          'oci-no-registry-url',
          `${at}.registryBaseUrl`,
          `${at}.registryBaseUrl is not accepted for OCI images: put the registry in identifier (ghcr.io/owner/image:tag) and remove it`,
          registrySource('oci.go', '90f9ee8a'),
        );
      if (pkg.fileSha256) error('oci-no-file-sha256', `${at}.fileSha256`, `${at}.fileSha256 is for bundles only: remove it from an OCI image`, registrySource('oci.go', '90f9ee8a'));
      break;
    case 'mcpb':
      if (!pkg.fileSha256)
        error(
          'mcpb-file-sha256-required',
          `${at}.fileSha256`,
          `${at}.fileSha256 is missing: give the bundle's sha256 (sha256sum x.mcpb) so hosts can check the download`,
          registrySource('mcpb.go', '5123d117'),
        );
      if (typeof pkg.identifier === 'string' && !pkg.identifier.startsWith('https://'))
        error('mcpb-https-url', `${at}.identifier`, `${at}.identifier must be the bundle's https:// download URL (a GitHub or GitLab release asset)`, registrySource('mcpb.go', '5123d117'));
      break;
    case 'pypi':
      break;
    default:
      error(
        'unsupported-registry-type',
        `${at}.registryType`,
        `${at}.registryType '${String(pkg.registryType)}' is not one hosts install: use npm, pypi, oci, nuget or mcpb`,
        'modelcontextprotocol/registry internal/validators/package.go',
      );
  }
}

/**
 * validateRemoteNamespaceMatch: a remote's host must be the namespace's domain or under it
 * (com.example/x → example.com; localhost exempt). websiteUrl has the same check in validators.go,
 * but the registry's own valid example (examples/valid/with-remote.json @ 419f3c5d) breaks it, so a
 * mismatch there is a warning only.
 */
function checkRemoteHosts(server: ServerJson, name: string, findings: VerifyFinding[]): void {
  const namespace = name.split('/')[0];
  const parts = namespace.split('.');
  if (!name.includes('/') || parts.length < 2) return;
  const domain = [...parts].reverse().join('.');
  const check = (url: string, path: string, level: 'error' | 'warning', rule: string) => {
    const host = hostOf(url);
    if (host?.includes('{')) {
      findings.push({
        level: 'warning',
        rule: 'server-json/remote-host-templated',
        path,
        message: `${path}: the host is a {placeholder}, so whether it is under ${domain} cannot be checked: the registry accepts only hosts under ${domain}`,
        source: VALIDATORS,
      });
      return;
    }
    if (host === undefined || host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1') return;
    if (host !== domain && !host.endsWith(`.${domain}`))
      findings.push({
        level,
        rule,
        path,
        message: `${path} host ${host} is not ${domain} or under it (the namespace ${namespace}): serve it under ${domain} or publish under ${host.split('.').reverse().join('.')}/…`,
        source: VALIDATORS,
      });
  };
  (server.remotes ?? []).forEach((remote, index) => typeof remote.url === 'string' && check(remote.url, `remotes[${index}].url`, 'error', 'server-json/remote-url-namespace-mismatch'));
  if (typeof server.websiteUrl === 'string') check(server.websiteUrl, 'websiteUrl', 'warning', 'server-json/website-url-namespace-mismatch');
}

function hostOf(url: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url);
  return match ? match[1].toLowerCase() : undefined;
}
