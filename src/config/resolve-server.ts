import { isAbsolute, resolve } from 'node:path';
import type { OAuthSettings, RawRemoteServer, RawServerConfig, RawStdioServer, ToolrunConfig } from './config-types.js';
import { ServerNotStartedError, type ConfigPlace } from '../errors.js';
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
    ...(raw.oauth && { oauth: resolveOAuth(raw.oauth, (value, field) => expandEnv(value, env, where(`oauth.${field}`))) }),
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

/** The `oauth` block with its `${VAR}`s expanded; the secret remembered for masking (SPEC §8). */
function resolveOAuth(raw: OAuthSettings, expand: (value: string, field: string) => string): OAuthSettings {
  const resolved: OAuthSettings = { ...raw };
  if (raw.clientId !== undefined) resolved.clientId = expand(raw.clientId, 'clientId');
  if (raw.scope !== undefined) resolved.scope = expand(raw.scope, 'scope');
  if (raw.clientMetadataUrl !== undefined) resolved.clientMetadataUrl = expand(raw.clientMetadataUrl, 'clientMetadataUrl');
  if (raw.issuer !== undefined) resolved.issuer = expand(raw.issuer, 'issuer');
  if (raw.clientSecret !== undefined) {
    resolved.clientSecret = expand(raw.clientSecret, 'clientSecret');
    rememberSecret(resolved.clientSecret);
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
