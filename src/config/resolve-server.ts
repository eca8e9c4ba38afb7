import { isAbsolute, resolve } from 'node:path';
import type { OAuthSettings, RawRemoteServer, RawServerConfig, RawStdioServer, ToolrunConfig } from './config-types.js';
import { ConfigError, ServerNotStartedError, type ConfigPlace } from '../errors.js';
import { isSecretName, rememberSecret } from '../secrets/mask-secrets.js';
import { expandEnv } from './expand-env.js';
import { readEnvFile } from './env-file.js';
import type { ProtocolSetting } from '../protocol/protocol-era.js';
import { currentEnv } from '../run-environment.js';

/**
 * A server entry made ready to start: its `${VAR}`s expanded, its cwd absolute, every setting
 * resolved from the entry or the config's defaults, and its protocol choice decided.
 */
type Resolved<Raw extends RawServerConfig> = Omit<Raw, 'connectTimeoutMs' | 'installTimeoutMs' | 'protocol' | 'cwd'> & {
  connectTimeoutMs: number;
  protocol: ProtocolChoice;
};

export type StdioServerSpec = Resolved<RawStdioServer> & {
  /** Only the server's own `env` entries; the parent's environment is added at spawn. */
  env: Record<string, string>;
  cwd: string;
  installTimeoutMs: number;
};

export type RemoteServerSpec = Resolved<RawRemoteServer>;

/** `auto` or a fixed revision, and who fixed it (SPEC §10: `--protocol` wins over the entry). */
export interface ProtocolChoice {
  setting: ProtocolSetting;
  chosenBy: 'config' | 'flag' | 'auto';
}

export type ServerSpec = StdioServerSpec | RemoteServerSpec;

/** Expands a server entry's `${VAR}`s and resolves its cwd; throws ConfigError naming an unset variable, ServerNotStartedError for a refused entry. */
export function resolveServer(config: ToolrunConfig, raw: RawServerConfig, env: NodeJS.ProcessEnv = currentEnv()): ServerSpec {
  const origin = raw.origin;
  const where = (field: string): ConfigPlace =>
    origin
      ? { file: origin.file, jsonPath: `${origin.path}.${origin.fields?.[field] ?? origin.fields?.[field.split('.')[0]!] ?? field}`, hostWithoutDefaults: origin.withoutDefaults }
      : { file: config.path, jsonPath: `mcpServers.${raw.name}.${field}` };
  if (raw.refused) throw new ServerNotStartedError(raw.name, raw.refused);
  const expandMap = (map: Record<string, string>, field: string) =>
    Object.fromEntries(
      Object.entries(map).map(([key, value]) => {
        const expanded = expandEnv(value, env, where(`${field}.${key}`));
        rememberConfigSecrets(key, expanded);
        return [key, expanded];
      }),
    );
  const connectTimeoutMs = raw.connectTimeoutMs ?? config.connectTimeoutMs;
  const protocol: ProtocolChoice = config.protocolFlag
    ? { setting: config.protocolFlag, chosenBy: 'flag' }
    : raw.protocol && raw.protocol !== 'auto'
      ? { setting: raw.protocol, chosenBy: 'config' }
      : { setting: 'auto', chosenBy: 'auto' };
  if (raw.transport === 'stdio') {
    const cwd = expandEnv(raw.cwd ?? config.baseDir, env, where('cwd'));
    return {
      transport: 'stdio',
      name: raw.name,
      command: expandEnv(raw.command, env, where('command')),
      args: raw.args.map((arg, index) => rememberUrlPassword(expandEnv(arg, env, where(`args[${index}]`)))),
      env: { ...envFileVariables(raw, config.baseDir, env, where('envFile')), ...expandMap(raw.env, 'env') },
      cwd: isAbsolute(cwd) ? cwd : resolve(config.baseDir, cwd),
      hint: raw.hint,
      launch: raw.launch,
      connectTimeoutMs,
      installTimeoutMs: raw.installTimeoutMs ?? config.installTimeoutMs,
      protocol,
    };
  }
  return {
    transport: raw.transport,
    name: raw.name,
    url: rememberUrlPassword(expandEnv(raw.url, env, where('url'))),
    headers: expandMap(raw.headers, 'headers'),
    ...(raw.oauth && { oauth: resolveOAuth(checkGrantSettings(raw.oauth, where('oauth')), (value, field) => expandEnv(value, env, where(`oauth.${field}`)), config.baseDir) }),
    hint: raw.hint,
    connectTimeoutMs,
    protocol,
  };
}

/** The variables of the entry's envFile (under its own `env`, which wins, as in VS Code), each remembered for masking. */
function envFileVariables(raw: RawStdioServer, baseDir: string, env: NodeJS.ProcessEnv, where: ConfigPlace): Record<string, string> {
  if (raw.envFile === undefined) return {};
  const named = expandEnv(raw.envFile, env, where);
  const variables = readEnvFile(isAbsolute(named) ? named : resolve(baseDir, named), where);
  for (const [name, value] of Object.entries(variables)) rememberConfigSecrets(name, value);
  return variables;
}

/**
 * The fields each grant needs, and none it does not use (SPEC §21): one source per credential, the
 * assertion for `jwt_bearer`, the identity provider and the ID token for `enterprise`.
 */
function checkGrantSettings(oauth: OAuthSettings, place: ConfigPlace): OAuthSettings {
  const fail = (detail: string) => {
    throw new ConfigError(detail, { place });
  };
  const grant = oauth.grant ?? 'authorization_code';
  const sources = (target: object, names: string[]) => names.filter((name) => (target as Record<string, unknown>)[name] !== undefined);
  const keyed = sources(oauth, ['privateKey', 'privateKeyFile']);
  if (keyed.length > 1) fail('set privateKey or privateKeyFile, not both');
  // private_key_jwt signs as a client the authorization server knows (its public key registered there): no dynamic registration.
  if (keyed.length > 0 && oauth.clientId === undefined) fail(`${keyed[0]} signs for a registered client: set clientId`);
  // SEP-1046: pre-registered credentials, no dynamic registration; RFC 6749 §4.4: a confidential client.
  if (grant === 'client_credentials' && (oauth.clientId === undefined || (oauth.clientSecret === undefined && keyed.length === 0)))
    fail('grant "client_credentials" needs the client the authorization server issued: set clientId, and clientSecret ("${VAR}") or privateKey');
  if (grant === 'enterprise' && oauth.clientId === undefined) fail('grant "enterprise" presents the ID-JAG as a client the authorization server knows: set clientId (and clientSecret or privateKey)');
  const assertion = sources(oauth, ['assertion', 'assertionFile', 'assertionCommand']);
  if (grant === 'jwt_bearer' && assertion.length !== 1)
    fail(
      assertion.length === 0
        ? 'grant "jwt_bearer" needs the workload\'s token: set assertion ("${VAR}"), assertionFile or assertionCommand'
        : `set one of ${assertion.join(', ')}, not ${assertion.length}`,
    );
  if (grant !== 'jwt_bearer' && assertion.length > 0) fail(`${assertion[0]} is used by grant "jwt_bearer" only (grant is "${grant}")`);
  if (grant === 'enterprise') {
    const idp = oauth.idp;
    if (!idp || (idp.issuer === undefined && idp.tokenEndpoint === undefined)) fail('grant "enterprise" needs the identity provider: set idp.issuer (or idp.tokenEndpoint)');
    const idToken = sources(idp!, ['idToken', 'idTokenFile', 'idTokenCommand']);
    if (idToken.length !== 1)
      fail(
        idToken.length === 0
          ? 'grant "enterprise" needs the user\'s ID token: set idp.idToken ("${VAR}"), idp.idTokenFile or idp.idTokenCommand'
          : `set one of ${idToken.map((name) => `idp.${name}`).join(', ')}, not ${idToken.length}`,
      );
  } else if (oauth.idp !== undefined) fail(`idp is used by grant "enterprise" only (grant is "${grant}")`);
  return oauth;
}

/**
 * The `oauth` block with its `${VAR}`s expanded, its files made absolute (from the config's folder),
 * and its secrets remembered for masking (SPEC §8). Commands are left to the shell that runs them.
 */
function resolveOAuth(raw: OAuthSettings, expand: (value: string, field: string) => string, baseDir: string): OAuthSettings {
  const resolved: OAuthSettings = { ...raw };
  const text = <T extends object>(target: T, key: keyof T & string, prefix = '', secret = false) => {
    const value = target[key];
    if (typeof value !== 'string') return;
    const expanded = expand(value, `${prefix}${key}`);
    (target as Record<string, unknown>)[key] = expanded;
    if (secret) rememberSecret(expanded);
  };
  const file = <T extends object>(target: T, key: keyof T & string, prefix = '') => {
    text(target, key, prefix);
    const value = target[key];
    if (typeof value === 'string' && !isAbsolute(value)) (target as Record<string, unknown>)[key] = resolve(baseDir, value);
  };
  for (const key of ['clientId', 'scope', 'clientMetadataUrl', 'issuer', 'keyId'] as const) text(resolved, key);
  for (const key of ['clientSecret', 'privateKey', 'assertion'] as const) text(resolved, key, '', true);
  for (const key of ['privateKeyFile', 'assertionFile'] as const) file(resolved, key);
  if (raw.idp) {
    const idp = (resolved.idp = { ...raw.idp });
    for (const key of ['issuer', 'tokenEndpoint', 'clientId'] as const) text(idp, key, 'idp.');
    for (const key of ['clientSecret', 'idToken'] as const) text(idp, key, 'idp.', true);
    file(idp, 'idTokenFile', 'idp.');
  }
  return resolved;
}

/**
 * Secret values from the config, remembered so that a message quoting them (an SDK error echoing a
 * header, a server's failure quoting its own URL) is masked wherever toolrun prints it (SPEC §8).
 */
function rememberConfigSecrets(name: string, value: string): void {
  if (isSecretName(name)) {
    rememberSecret(value);
    // "Bearer abc…": the token alone may be quoted too.
    const token = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(value)?.[1];
    if (token) rememberSecret(token);
  }
  rememberUrlPassword(value);
}

function rememberUrlPassword(value: string): string {
  for (const match of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:([^\s/?#@]+)@/gi)) {
    rememberSecret(match[1]!);
    // fetch and URL quote the password percent-encoded or decoded: mask both spellings.
    try {
      rememberSecret(decodeURIComponent(match[1]!));
    } catch {
      // Not valid percent-encoding: the raw spelling is all there is.
    }
  }
  return value;
}
