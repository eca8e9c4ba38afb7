import { dpopKeyThumbprint } from '../../auth/dpop.js';
import { TokenStore, type AuthRecord } from '../../auth/token-store.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import { ExitCode } from '../../errors.js';
import { toolrunCommand } from '../../text/quote-shell-word.js';

/** What may be shown of a record: never a token or a secret. */
export function recordSummary(record: AuthRecord): Record<string, unknown> {
  const expiresAt = record.tokens?.expires_at;
  return {
    server: record.server,
    url: record.serverUrl,
    issuer: record.issuer ?? null,
    client_id: record.client?.client_id ?? null,
    scopes: record.tokens?.scope?.split(' ').filter(Boolean) ?? [],
    logged_in: Boolean(record.tokens?.access_token),
    registration_refused: record.registrationRefused ?? null,
    refreshable: Boolean(record.tokens?.refresh_token),
    expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
    grant: record.grant ?? null,
    client_authentication: record.clientAuthentication ?? null,
    token_binding: record.tokens ? (isDpopBound(record) ? 'dpop' : 'bearer') : null,
    dpop_key_thumbprint: isDpopBound(record) ? dpopKeyThumbprint(record.dpop!) : null,
  };
}

function isDpopBound(record: AuthRecord): boolean {
  return record.dpop !== undefined && record.tokens?.token_type?.toLowerCase() === 'dpop';
}

export function describeRecord(record: AuthRecord): string {
  const summary = recordSummary(record);
  const scopes = (summary.scopes as string[]).join(' ') || 'none';
  const expiry = summary.expires_at ? `expires ${String(summary.expires_at)}` : 'no expiry given';
  const how = record.grant ? `, grant ${record.grant}${record.clientAuthentication ? ` (client authentication ${record.clientAuthentication})` : ''}` : '';
  const binding = summary.token_binding === 'dpop' ? `, DPoP-bound token (key thumbprint ${String(summary.dpop_key_thumbprint)})` : summary.token_binding === 'bearer' ? ', bearer token' : '';
  return `issuer ${String(summary.issuer ?? 'unknown')}, scopes ${scopes}, ${expiry}${how}${binding}`;
}

/** `toolrun auth status [SERVER]`. */
export async function runAuthStatus(cli: CliContext, server: string | undefined): Promise<number> {
  const records = new TokenStore(cli.env).list().filter((record) => server === undefined || record.server === server);
  if (cli.globals.json) {
    await cli.terminal.resultJson({ success: true, servers: records.map(recordSummary) });
    return ExitCode.OK;
  }
  if (records.length === 0) {
    await cli.terminal.result(server ? `no OAuth login stored for '${server}'` : 'no OAuth logins stored');
    return ExitCode.OK;
  }
  const lines = records.map((record) => {
    const state = record.tokens?.access_token
      ? 'logged in'
      : record.registrationRefused
        ? `registration refused by the authorization server: run ${toolrunCommand('auth', 'login', record.server)}`
        : 'logged out';
    const client = record.client?.client_id ? `, client ${record.client.client_id}` : '';
    return `${record.server} (${record.serverUrl}): ${state}; ${describeRecord(record)}${client}`;
  });
  await cli.terminal.result(lines.join('\n'));
  return ExitCode.OK;
}
