#!/usr/bin/env node
// The official MCP conformance suite's client under test, as the suite runs it:
//   client.mjs SERVER_URL   with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT,
//   MCP_CONFORMANCE_PROTOCOL_VERSION) in the environment.
// Each scenario becomes what a user would type: a config naming the mock server, then an ordinary
// toolrun command (`exec`, `list`) from the built CLI, with a fresh token store. Logins are consented
// through $BROWSER, as a CI job would do it (fixtures/oauth-browser.js follows the authorization
// server's redirects to toolrun's loopback callback). toolrun's exit code is passed through.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const SERVER = 'conformance';

/** The suite's fixed Client ID Metadata Document URL (its authorization server accepts it unfetched). */
const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The toolrun command for each scenario; a scenario not named here lists the server's tools. */
function commandFor(name) {
  if (name === 'tools_call') return ['exec', `${SERVER}:add_numbers`, 'a=2', 'b=3'];
  if (['auth/pre-registration', 'auth/client-credentials-basic', 'auth/client-credentials-jwt'].includes(name)) return ['list', '--server', SERVER];
  if (name.startsWith('auth/')) return ['exec', `${SERVER}:test-tool`];
  return ['list', '--server', SERVER];
}

/** The server's entry, as a user would write it for this kind of server. */
function entryFor(name) {
  const entry = { url };
  if (version) entry.protocol = version;
  if (context.client_id) entry.oauth = { clientId: context.client_id, ...(context.client_secret && { clientSecret: context.client_secret }) };
  else if (name.startsWith('auth/')) entry.oauth = { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL };
  if (name.startsWith('auth/client-credentials')) entry.oauth.grant = 'client_credentials';
  return entry;
}

const folder = mkdtempSync(join(tmpdir(), 'toolrun-conformance-'));
try {
  const config = join(folder, 'toolrun.config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER]: entryFor(scenario) } }, null, 2));
  const env = { ...process.env, XDG_DATA_HOME: join(folder, 'data'), BROWSER: join(root, 'fixtures/oauth-browser.js'), NO_COLOR: '1' };
  const args = [join(root, 'bin/toolrun.js'), '--config', config, ...commandFor(scenario)];
  process.stderr.write(`$ toolrun --config ${config} ${commandFor(scenario).join(' ')}\n`);
  const run = spawnSync(process.execPath, args, { env, stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
