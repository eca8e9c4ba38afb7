#!/usr/bin/env node
// The official MCP conformance suite's client under test, as the suite runs it:
//   client.mjs SERVER_URL   with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT,
//   MCP_CONFORMANCE_PROTOCOL_VERSION) in the environment.
// Each scenario becomes what a user would type: a config naming the mock server, then an ordinary
// toolrun command (`exec`, `list`) from the built CLI, or a short script of them (SCRIPTS), with a
// fresh token store. A browser login comes first, with `toolrun auth login` (as docs/oauth.md teaches);
// logins are consented through $BROWSER, as a CI job would do it (fixtures/oauth-browser.js follows the authorization
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
  if (name === 'elicitation-sep1034-client-defaults') return ['--elicit', 'accept', 'exec', `${SERVER}:test_client_elicitation_defaults`];
  if (name === 'sse-retry') return ['exec', `${SERVER}:test_reconnection`];
  if (['auth/pre-registration', 'auth/client-credentials-basic', 'auth/client-credentials-jwt'].includes(name)) return ['list', '--server', SERVER];
  if (name.startsWith('auth/')) return ['exec', `${SERVER}:test-tool`];
  // Skills (SEP-2640): listing reads no file; reading a skill verifies its SKILL.md against the entry
  // first, and a tampered one (digest, size or frontmatter) is refused (exit 1) before any other file is read.
  if (name === 'sep-2640-client-no-prefetch') return ['skills', 'list', SERVER];
  if (name.startsWith('sep-2640-client-verify-')) return ['skills', 'read', `${SERVER}:pdf-processing`, 'references/FORMS.md'];
  return ['list', '--server', SERVER];
}

/**
 * Scenarios that take more than one command, as a script would run them: each step gets what the
 * ones before it printed (`toolrun` runs one toolrun command and returns its stdout).
 */
const SCRIPTS = {
  // Calls each tool of the context with its arguments as given (a null, which its schema refuses, with --no-validate).
  'http-custom-headers': (toolrun) => {
    for (const call of context.toolCalls ?? []) {
      const unchecked = Object.values(call.arguments).includes(null) ? ['--no-validate'] : [];
      toolrun(['exec', `${SERVER}:${call.name}`, ...unchecked, '--args', JSON.stringify(call.arguments)]);
    }
  },
  // Calls every tool toolrun lists (a smoke test of the server): the invalid ones must not be listed.
  'http-invalid-tool-headers': (toolrun) => {
    for (const tool of JSON.parse(toolrun(['--json', 'list', '--server', SERVER])).tools ?? []) toolrun(['exec', `${tool.server}:${tool.name}`, '--no-validate']);
  },
  // Calls every tool toolrun lists, accepting each elicitation round (a multi-round-trip call in 2026-07-28).
  'sep-2322-client-request-state': (toolrun) => {
    for (const tool of JSON.parse(toolrun(['--json', 'list', '--server', SERVER])).tools ?? []) toolrun(['--elicit', 'accept', 'exec', `${tool.server}:${tool.name}`]);
  },
  // Echoes the inputSchema (`parameters`) toolrun listed for the focal tool back through the echo tool.
  'json-schema-2020-12-preservation': (toolrun) => {
    const tools = JSON.parse(toolrun(['--json', 'list', '--server', SERVER])).tools ?? [];
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('json_schema_2020_12_tool is not listed');
    toolrun(['exec', `${SERVER}:json_schema_echo`, '--args', JSON.stringify({ schema: focal.parameters })]);
  },
};

/**
 * The server's entry, as a user would write it for this kind of server: keys, assertions and ID
 * tokens come from variables (CREDENTIALS), as a CI job passes its secrets and its OIDC token.
 */
function entryFor(name) {
  const entry = { url };
  if (version) entry.protocol = version;
  if (context.client_id) entry.oauth = { clientId: context.client_id, ...(context.client_secret && { clientSecret: '${CONFORMANCE_CLIENT_SECRET}' }) };
  else if (name.startsWith('auth/')) entry.oauth = { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL };
  if (name.startsWith('auth/client-credentials')) entry.oauth.grant = 'client_credentials';
  // private_key_jwt: the client's key (SEP-1046).
  if (context.private_key_pem) Object.assign(entry.oauth, { privateKey: '${CONFORMANCE_PRIVATE_KEY}', signingAlgorithm: context.signing_algorithm });
  // Workload identity federation: the workload's token is the assertion of a JWT-bearer grant (SEP-1933).
  if (context.valid_jwt) Object.assign(entry.oauth, { grant: 'jwt_bearer', assertion: '${CONFORMANCE_WORKLOAD_TOKEN}' });
  // Enterprise-managed authorization: the identity provider's ID token → an ID-JAG → a token (SEP-990).
  if (context.idp_id_token) Object.assign(entry.oauth, { grant: 'enterprise', idp: { issuer: context.idp_issuer, clientId: context.idp_client_id, idToken: '${CONFORMANCE_ID_TOKEN}' } });
  return entry;
}

/** An entry that logs in through a browser (the authorization code grant): the machine grants get their tokens by themselves. */
function logsInFirst(entry) {
  return entry.oauth !== undefined && entry.oauth.grant === undefined;
}

/** The variables the entry reads its credentials from. */
const CREDENTIALS = {
  CONFORMANCE_CLIENT_SECRET: context.client_secret,
  CONFORMANCE_PRIVATE_KEY: context.private_key_pem,
  CONFORMANCE_WORKLOAD_TOKEN: context.valid_jwt,
  CONFORMANCE_ID_TOKEN: context.idp_id_token,
};

const folder = mkdtempSync(join(tmpdir(), 'toolrun-conformance-'));
try {
  const config = join(folder, 'toolrun.config.json');
  const entry = entryFor(scenario);
  writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER]: entry } }, null, 2));
  const credentials = Object.fromEntries(Object.entries(CREDENTIALS).filter(([, value]) => value !== undefined));
  const env = { ...process.env, ...credentials, XDG_DATA_HOME: join(folder, 'data'), BROWSER: join(root, 'fixtures/oauth-browser.js'), NO_COLOR: '1' };
  /** Runs one toolrun command; its stdout is returned (and shown), a failure ends the scenario. */
  const toolrun = (command) => {
    process.stderr.write(`$ toolrun --config ${config} ${command.join(' ')}\n`);
    const run = spawnSync(process.execPath, [join(root, 'bin/toolrun.js'), '--config', config, ...command], { env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    process.stdout.write(run.stdout ?? '');
    if (run.status !== 0) throw Object.assign(new Error(`toolrun exited with ${run.status}`), { status: run.status });
    return run.stdout;
  };
  try {
    // A browser login is done first with `auth login`, as docs/oauth.md teaches; the command then uses the stored token.
    if (logsInFirst(entry)) toolrun(['auth', 'login', SERVER]);
    if (SCRIPTS[scenario]) SCRIPTS[scenario](toolrun);
    else toolrun(commandFor(scenario));
  } catch (error) {
    if (error.status === undefined) process.stderr.write(`${error.message}\n`);
    process.exitCode = error.status ?? 1;
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
