import { revokeStoredTokens, type Revocation } from '../../auth/revoke-tokens.js';
import { clientOf, type AuthServer } from '../../auth/token-refresh.js';
import { TokenStore, type AuthRecord } from '../../auth/token-store.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import { resolveServer } from '../../config/resolve-server.js';
import { ExitCode, UsageError } from '../../errors.js';
import { maskSecrets } from '../../secrets/mask-secrets.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';

/**
 * `toolrun auth logout SERVER`: the tokens of every URL that name was stored for are revoked where
 * the authorization server offers RFC 7009 revocation, then forgotten with the registration. Where
 * they cannot be revoked the user is told they stay valid until they expire: forgetting is not ending.
 */
export async function runAuthLogout(cli: CliContext, server: string): Promise<number> {
  const store = new TokenStore(cli.env);
  const records = store.list().filter((record) => record.server === server);
  if (records.length === 0) throw new UsageError(`no OAuth login stored for '${server}' (toolrun auth status lists them)`);
  const oauth = await configuredOAuth(cli, server);
  const revocations: Revocation[] = [];
  for (const record of records) {
    const entry: AuthServer = { name: record.server, url: record.serverUrl, oauth };
    revocations.push(await revokeStoredTokens(record, clientOf(entry, record)));
    store.remove(record.server, record.serverUrl);
  }
  if (cli.globals.json) await cli.terminal.resultJson({ success: true, server, removed: records.length, revocation: revocations.map((item) => item.outcome) });
  else await cli.terminal.result(`logged out of ${server}${describeRevocations(revocations, records)}`);
  return ExitCode.OK;
}

/** The entry's `oauth` (its pre-registered client and secret authenticate the revocation); none when the config no longer has it. */
async function configuredOAuth(cli: CliContext, server: string): Promise<AuthServer['oauth']> {
  try {
    const config = await loadCliConfig(cli);
    const raw = config.servers[server];
    const spec = raw ? resolveServer(config, raw, cli.env) : undefined;
    return spec && spec.transport !== 'stdio' ? spec.oauth : undefined;
  } catch {
    // Logging out must work without a readable config: the stored registration is used then.
    return undefined;
  }
}

function describeRevocations(revocations: Revocation[], records: AuthRecord[]): string {
  const failed = revocations.find((item): item is Extract<Revocation, { outcome: 'failed' }> => item.outcome === 'failed');
  const expiry = records.map((record) => record.tokens?.expires_at).find((at) => at !== undefined);
  const until = `they expire${expiry ? ` (${new Date(expiry).toISOString()}; a refresh token may live longer)` : ''}`;
  if (failed) return `; revoking its tokens failed (${maskSecrets(failed.why)}): they stay valid until ${until}`;
  if (revocations.some((item) => item.outcome === 'not-offered')) return `; the authorization server offers no revocation: its tokens stay valid until ${until}`;
  if (revocations.some((item) => item.outcome === 'refresh-revoked'))
    return `; its refresh token was revoked at the authorization server; the access token (one it cannot revoke) stays valid until ${until.replace('they expire', 'it expires')}`;
  if (revocations.some((item) => item.outcome === 'revoked')) return '; its tokens were revoked at the authorization server';
  return '';
}
