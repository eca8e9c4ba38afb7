import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';

/**
 * docs/config.md says where `${VAR}` expands. Each field of a remote entry's `oauth` block that does
 * expand (an unset variable there is a configuration error naming the field) must be named there:
 * a user keeping a client secret or a CI's OIDC token out of the config reads that list first.
 */
const UNSET = 'TOOLRUN_DOCS_UNSET_VARIABLE';
const V = `\${${UNSET}}`;
const MCP = 'https://mcp.example.com/mcp';
const enterprise = (idp: Record<string, string>) => ({ grant: 'enterprise', clientId: 'c', clientSecret: 's', idp: { issuer: 'https://idp.example.com', idToken: 't', ...idp } });

/** One entry per field: the field set to an unset variable, the rest of the entry valid for its grant. */
const ENTRIES: Record<string, Record<string, unknown>> = {
  clientId: { clientId: V },
  clientSecret: { clientId: 'c', clientSecret: V },
  scope: { scope: V },
  privateKey: { clientId: 'c', privateKey: V },
  privateKeyFile: { clientId: 'c', privateKeyFile: V },
  keyId: { clientId: 'c', privateKey: 'k', keyId: V },
  assertion: { grant: 'jwt_bearer', assertion: V },
  assertionFile: { grant: 'jwt_bearer', assertionFile: V },
  issuer: { issuer: `https://${V}` },
  clientMetadataUrl: { clientMetadataUrl: `https://${V}/client.json` },
  'idp.clientId': enterprise({ clientId: V }),
  'idp.clientSecret': enterprise({ clientSecret: V }),
  'idp.idToken': enterprise({ idToken: V }),
  'idp.idTokenFile': { ...enterprise({}), idp: { issuer: 'https://idp.example.com', idTokenFile: V } },
  'idp.issuer': enterprise({ issuer: `https://${V}` }),
  'idp.tokenEndpoint': { ...enterprise({}), idp: { tokenEndpoint: `https://${V}/token`, idToken: 't' } },
};

describe('docs/config.md: where ${VAR} expands', () => {
  it("names every field of the oauth block that expands (each one's unset variable is a config error naming it)", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-docs-variables-'));
    const config = join(folder, 'toolrun.config.json');
    const servers = Object.fromEntries(Object.values(ENTRIES).map((oauth, index) => [`s${index}`, { url: MCP, oauth }]));
    writeFileSync(config, JSON.stringify({ mcpServers: servers }));
    const result = await runInProcess(['--config', config, 'validate'], { env: { [UNSET]: undefined } });
    expect(result.exitCode, result.stdout + result.stderr).toBe(3);
    const output = result.stdout + result.stderr;
    // Every field expanded: its server's one problem is the unset variable, named at that field.
    Object.keys(ENTRIES).forEach((field, index) => expect(output).toContain(`mcpServers.s${index}.oauth.${field}: environment variable ${UNSET} is not set`));

    const docs = readFileSync(join(ROOT, 'docs/config.md'), 'utf8');
    const bullet = /^- `\$\{VAR\}` and `\$\{VAR:-default\}` expand[\s\S]*?(?=^- )/m.exec(docs)?.[0] ?? '';
    expect(bullet).not.toBe('');
    expect(Object.keys(ENTRIES).filter((field) => !bullet.includes(`\`${field}\``))).toEqual([]);
  });
});
