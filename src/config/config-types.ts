/** Shapes of a loaded configuration. Raw server entries keep `${VAR}` unexpanded: see resolve-server.ts. */

import type { HostLaunch } from '../process/launch-environment.js';

export interface RetryPolicy {
  /** Total connection attempts, the first included. */
  attempts: number;
  /** Delay before the second attempt; each later delay doubles. */
  baseDelayMs: number;
}

export interface RawStdioServer {
  transport: 'stdio';
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** A .env file whose variables come under `env` (VS Code's and Cursor's `envFile`), `${VAR}`s unexpanded. */
  envFile?: string;
  hint?: string;
  connectTimeoutMs?: number;
  /** How long an npx-style runner may spend installing the package before the server runs. */
  installTimeoutMs?: number;
  /** `auto` (default) or a protocol revision: SPEC §10. */
  protocol?: string;
  /** Why this entry must not be started (`--host`: the host would not start it, or toolrun cannot): a "not started" failure when it is used. */
  refused?: ServerRefusal;
  /**
   * `{"bundle": …}` or `{"serverJson": …}`: the launch is composed from that file when the config is
   * loaded for a command (src/verify/packaged-servers.ts); until then `command` is empty.
   */
  packaged?: PackagedSource;
  /** `--host` (without `--terminal-env`): started as that host starts it, its environment and PATH (SPEC §13). */
  launch?: HostLaunch;
  /** `--host` and an entry without a cwd: the folder your terminal's way starts it in (cwd is then the host's folder). */
  terminalCwd?: string;
}

/** A remote entry's `oauth` block (SPEC §14); `${VAR}`s stay unexpanded until the server is used. */
export interface OAuthSettings {
  /** A client registered by hand; without it toolrun registers itself (dynamic registration). */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for, space-separated; default: the server's challenge, else its `scopes_supported`. */
  scope?: string;
  /**
   * How tokens are got: `authorization_code` (a browser login), or with no person (SPEC §21):
   * `client_credentials` (the client's secret or key), `jwt_bearer` (a workload's identity token:
   * workload identity federation), `enterprise` (an identity provider's ID token exchanged for an ID-JAG).
   */
  grant?: OAuthGrant;
  /** The loopback redirect's port for `auth login` (default: the one kept with the registration, else a free one). */
  callbackPort?: number;
  /** A Client ID Metadata Document's https URL: the client_id where the authorization server supports them (no registration). */
  clientMetadataUrl?: string;
  /** The authorization server (its issuer) clientSecret belongs to: the secret is sent to no other. */
  issuer?: string;
  /** private_key_jwt client authentication (RFC 7523): the client's private key, PEM, usually "${VAR}"; or a file holding it. */
  privateKey?: string;
  privateKeyFile?: string;
  /** The client assertion's algorithm (default: the key's own, ES256 for P-256, RS256 for RSA). */
  signingAlgorithm?: 'ES256' | 'ES384' | 'RS256';
  /** The `kid` of the client assertion's header, when the authorization server holds several keys. */
  keyId?: string;
  /** jwt_bearer: the assertion (a workload's OIDC token): "${VAR}", a file, or a command printing it. */
  assertion?: string;
  assertionFile?: string;
  assertionCommand?: string;
  /** DPoP-bound tokens (RFC 9449): true, false, or (unset) when the authorization server supports them. */
  dpop?: boolean;
  /** enterprise: the identity provider and the user's ID token. */
  idp?: IdentityProviderSettings;
}

export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer' | 'enterprise';

/** The company's identity provider of enterprise-managed authorization (SEP-990). */
export interface IdentityProviderSettings {
  /** Its issuer: the token endpoint is found in its metadata. */
  issuer?: string;
  /** Its token endpoint, when it has no metadata. */
  tokenEndpoint?: string;
  /** toolrun's client at the identity provider. */
  clientId?: string;
  clientSecret?: string;
  /** The user's ID token: "${VAR}", a file, or a command printing it. */
  idToken?: string;
  idTokenFile?: string;
  idTokenCommand?: string;
}

export interface RawRemoteServer {
  /** `auto` tries Streamable HTTP and falls back to SSE. */
  transport: 'auto' | 'http' | 'sse';
  name: string;
  url: string;
  headers: Record<string, string>;
  oauth?: OAuthSettings;
  hint?: string;
  connectTimeoutMs?: number;
  /** `auto` (default) or a protocol revision: SPEC §10. */
  protocol?: string;
  /** Why this entry must not be started (`--host`): a "not started" failure when it is used. */
  refused?: ServerRefusal;
}

/** Where a packaged entry's launch comes from: paths absolute (resolved against the config's folder), values unexpanded. */
export type PackagedSource =
  { kind: 'bundle'; path: string; userConfig: Record<string, string | string[]> } | { kind: 'serverJson'; path: string; package?: number; remote?: number; inputs: Record<string, string> };

export type RawServerConfig = (RawStdioServer | RawRemoteServer) & { origin?: EntryOrigin };

/**
 * Where a `--host` entry really is, for messages: the host's file (user or project), the entry's path
 * in it in the host's own keys (`servers.db`, `context_servers.db`, `mcp_servers.db`), and the host's
 * names of fields toolrun renamed (`headers.Authorization` → `bearer_token_env_var`).
 */
export interface EntryOrigin {
  file: string;
  path: string;
  fields?: Record<string, string>;
  /** The host's title when its syntax has no `${NAME:-default}`. */
  withoutDefaults?: string;
}

/**
 * Why a host's server is named but never started (SPEC §13): the host would not start it (not
 * approved, rejected, an untrusted project, denied by policy), or toolrun cannot start it as the host
 * does (a variable only the host fills in, an entry only the host understands, a server a host's
 * extension provides).
 */
export interface ServerRefusal {
  kind: 'pending-approval' | 'rejected' | 'untrusted' | 'denied' | 'host-only-variable' | 'host-only-entry' | 'host-extension';
  /** One line: why, naming the host and the file. */
  reason: string;
  /** One line: what to do, in the host's terms. */
  fix: string;
}

export type ToolImplementation = { type: 'builtin'; handler: string } | { type: 'mock'; mock_response: unknown } | { type: 'internal'; module: string; handler: string };

export interface ConfiguredTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  implementation: ToolImplementation;
}

export interface ToolrunConfig {
  /** Absolute path of the file read, or null for the embedded default. */
  path: string | null;
  /** Folder that relative paths resolve against. */
  baseDir: string;
  servers: Record<string, RawServerConfig>;
  tools: ConfiguredTool[];
  paramMappings: Record<string, Record<string, string>>;
  retry: RetryPolicy;
  timeoutMs: number;
  slowToolMs: number;
  connectTimeoutMs: number;
  installTimeoutMs: number;
  /** `roots`: folders offered to servers that ask for roots (SPEC §15), absolute, in the file's order. */
  roots: string[];
  /** `--protocol`: the revision every server of this command is spoken to in, over their entries'. */
  protocolFlag?: string;
  /** The file's text as read (a session holder's key is made from it). */
  sourceText?: string;
  /** `--host`: whose servers these are, how that host starts them, and whether `--terminal-env` overrode it. */
  host?: { launch: HostLaunch; terminalEnv: boolean };
  /** `--host`: host files set aside (one the host cannot read either), each one line for stderr. */
  hostNotes?: string[];
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 2000 };
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_SLOW_TOOL_MS = 1000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** SPEC §8: a cold npx cache may take minutes on a slow network; killing it mid-install corrupts the cache. */
export const DEFAULT_INSTALL_TIMEOUT_MS = 120_000;

/** The seed's static mapping for the Z-Wave tool; config `paramMappings` add to it and win. */
export const DEFAULT_PARAM_MAPPINGS: Record<string, Record<string, string>> = {
  control_zwave_device: { device_name: 'deviceName', command: 'action' },
};
