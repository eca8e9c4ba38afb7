import { chmodSync, lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { ToolrunError } from '../errors.js';
import { foreignFolderReason } from '../files/foreign-folder.js';
import { readOwnFile } from '../files/read-own-file.js';
import { replaceFileAtomically } from '../files/write-file-safely.js';
import { rememberSecret } from '../secrets/mask-secrets.js';
import { authDirectory, authFileName } from './auth-paths.js';
import type { StoredDpopKey } from './dpop.js';
import type { OAuthGrant } from '../config/config-types.js';

/** Tokens as stored: the SDK's, with the expiry made absolute (a relative `expires_in` means nothing a day later). */
export type StoredTokens = OAuthTokens & { expires_at?: number; obtained_at?: number };

/** What toolrun keeps per server and URL: who issued, the registration, the tokens, the discovery results. */
export interface AuthRecord {
  version: 1;
  server: string;
  serverUrl: string;
  /** The authorization server (the SDK's issuer stamp): tokens are presented to it only. */
  issuer?: string;
  resource?: string;
  /** A dynamic registration (never the config's clientId/secret: those stay in the config). */
  client?: OAuthClientInformationMixed & { redirect_uris?: string[] };
  /** The loopback redirect the registration knows: a re-login reuses its port. */
  redirectUrl?: string;
  tokens?: StoredTokens;
  /** When the authorization server refused the dynamic registration (it forgot it): the next login registers again. */
  registrationRefused?: string;
  /** Saved so that a refresh or a later flow does no discovery requests. */
  discovery?: OAuthDiscoveryState;
  /** The key DPoP-bound tokens are bound to (RFC 9449): kept with them, never printed. */
  dpop?: StoredDpopKey;
  /** How the tokens were got (SPEC §21): the grant, and the client's authentication at the token endpoint. */
  grant?: OAuthGrant;
  clientAuthentication?: string;
}

const MAX_RECORD_BYTES = 1 << 20;

/** The token files of one user, 0700 folder and 0600 files, written whole (temp + rename). Never prints a token. */
export class TokenStore {
  readonly directory: string;
  constructor(env: NodeJS.ProcessEnv) {
    this.directory = authDirectory(env);
  }

  pathOf(server: string, url: string): string {
    return join(this.directory, authFileName(server, url));
  }

  /** The record, its secrets remembered for masking (SPEC §8); undefined when none. */
  read(server: string, url: string): AuthRecord | undefined {
    return this.readFile(this.pathOf(server, url));
  }

  write(record: AuthRecord): void {
    this.ensureDirectory();
    replaceFileAtomically(this.pathOf(record.server, record.serverUrl), Buffer.from(`${JSON.stringify(record, null, 2)}\n`), { exactMode: 0o600, replaceOddEntries: false });
  }

  /** Forgets what is stored for this server and URL; true when something was. */
  remove(server: string, url: string): boolean {
    try {
      unlinkSync(this.pathOf(server, url));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Every record stored (for `auth status` and `auth logout`), whatever config named them. */
  list(): AuthRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.directory).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names.flatMap((name) => this.readFile(join(this.directory, name)) ?? []).sort((a, b) => a.server.localeCompare(b.server));
  }

  private readFile(path: string): AuthRecord | undefined {
    const read = readOwnFile(path, MAX_RECORD_BYTES);
    if (read === undefined) return undefined;
    if ('problem' in read) throw new ToolrunError('unreachable', `toolrun will not use its token file ${path}: ${read.problem}`);
    let record: AuthRecord;
    try {
      record = JSON.parse(read.bytes.toString('utf8')) as AuthRecord;
    } catch {
      return undefined;
    }
    if (record?.version !== 1 || typeof record.server !== 'string' || typeof record.serverUrl !== 'string') return undefined;
    for (const secret of [record.tokens?.access_token, record.tokens?.refresh_token, record.tokens?.id_token, record.client?.client_secret, record.dpop?.privateJwk?.d]) {
      if (typeof secret === 'string' && secret) rememberSecret(secret);
    }
    return record;
  }

  /** Makes the folder (0700, ours): before a record or a lock file is written in it. */
  ensureDirectory(): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const foreign = foreignFolderReason(this.directory);
    if (foreign) throw new ToolrunError('unreachable', `toolrun will not keep tokens in ${this.directory}: ${foreign}`);
    // A folder made earlier with a looser umask: tokens must not be listable by others.
    if ((lstatSync(this.directory).mode & 0o077) !== 0) chmodSync(this.directory, 0o700);
  }
}
