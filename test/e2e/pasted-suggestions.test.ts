import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStore } from '../../src/auth/token-store.js';
import { fixtureHome } from '../helpers/host-fixtures.js';
import { pasteInBash } from '../helpers/paste-in-bash.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

/**
 * Issue #31 item 2: every command toolrun suggests, pasted into bash, runs toolrun with exactly the
 * words meant and nothing else, whatever the server name, resource URI or scope holds. Each case
 * takes the suggestion from toolrun's real output and runs it with a stub `toolrun` on PATH.
 */

const SERVER = "s$(touch pwned-server)'q";
const URI = "note://x'$(touch pwned-link)'";
// Valid RFC 6749 scope tokens (only '"', '\' and controls are not), yet shell syntax.
const SCOPE = "mcp:read a$(touch${IFS}pwned-scope)'b `touch${IFS}pwned-tick`";

/** The command after `marker` in `text`, up to the end of its line (less a closing backtick and what follows it). */
function suggestionAfter(text: string, marker: string, closing?: RegExp): string {
  const line = text.split('\n').find((candidate) => candidate.includes(marker));
  expect(line, `no line with ${JSON.stringify(marker)} in:\n${text}`).toBeDefined();
  const rest = line!.slice(line!.indexOf(marker) + marker.length);
  return closing ? rest.replace(closing, '') : rest;
}

describe('a suggested command pasted into bash runs exactly that command', () => {
  const config = writeTempConfig({ retry: { attempts: 1 }, mcpServers: { [SERVER]: fixtureServer('hostile-names-server.js', { env: { LINK_URI: URI } }) } });

  it("a resource link's 'read it:' command", async () => {
    const result = await runInProcess(['--config', config, 'exec', `${SERVER}:link`]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(pasteInBash(suggestionAfter(result.stdout, 'read it: '))).toEqual({ argv: ['resources', 'read', URI, '--server', SERVER], created: [] });
  });

  it("resources watch of a server without subscriptions: the 'read it once' command", async () => {
    const result = await runInProcess(['--config', config, 'resources', 'watch', URI, '--server', SERVER]);
    expect(result.exitCode).toBe(2);
    expect(pasteInBash(suggestionAfter(result.stderr, 'read it once with: '))).toEqual({ argv: ['resources', 'read', URI, '--server', SERVER], created: [] });
  });

  it("doctor's fix for a --call of a tool the server does not list", async () => {
    const result = await runInProcess(['--config', config, '--json', 'mcp', 'doctor', SERVER, '--call', 'nope']);
    const fix = JSON.parse(result.stdout).steps.find((step: { id: string }) => step.id === 'latency').fix as string;
    expect(pasteInBash(suggestionAfter(fix, "name one of the server's tools: "))).toEqual({ argv: ['list', '--server', SERVER], created: [] });
  });

  it('a server only a host config has: the --host command', async () => {
    const home = fixtureHome();
    home.write(join(home.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { [SERVER]: { command: 'node', args: ['s.js'] } } }));
    const result = await runInProcess(['mcp', 'doctor', SERVER], { cwd: home.project, env: home.env });
    expect(result.exitCode).toBe(2);
    expect(pasteInBash(suggestionAfter(result.stderr, "cursor's config has it: "))).toEqual({ argv: ['--host', 'cursor', 'mcp', 'doctor', SERVER], created: [] });
  });
});

describe('OAuth: the login command of a challenge, and scopes that are not scopes', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // A protected resource: 401 without a token; with one, 403 insufficient_scope naming the path's scope
    // (a header holds no line break: a tab, and a byte fetch reads as U+009B, a one-character CSI).
    const scopes: Record<string, string> = { '/fine/mcp': SCOPE, '/quote/mcp': 'mcp:read x"y', '/control/mcp': 'mcp:read\t\u009b2J' };
    server = createServer((req, res) => {
      const path = req.url ?? '';
      if (!req.headers.authorization) {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"` }).end();
        return;
      }
      const scope = scopes[path]!.replace(/["\\]/g, (character) => `\\${character}`);
      res.writeHead(403, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A config of one remote server at `path`, and a token store with a token for it (so the server's 403 is reached). */
  function remote(path: string, withToken: boolean) {
    const config = writeTempConfig({ retry: { attempts: 1 }, mcpServers: { [SERVER]: { url: `${base}${path}` } } });
    const dataHome = mkdtempSync(join(tmpdir(), 'toolrun-paste-data-'));
    if (withToken) new TokenStore({ XDG_DATA_HOME: dataHome }).write({ version: 1, server: SERVER, serverUrl: `${base}${path}`, tokens: { access_token: 'stored-token', token_type: 'Bearer' } });
    return (args: string[]) => runInProcess(['--config', config, ...args], { env: { XDG_DATA_HOME: dataHome, BROWSER: undefined } });
  }

  it('no token stored: the `toolrun auth login SERVER` of the error', async () => {
    const result = await remote('/fine/mcp', false)(['exec', `${SERVER}:echo`]);
    expect(result.exitCode).toBe(4);
    expect(pasteInBash(suggestionAfter(result.stderr, 'run `', /`[^`]*$/))).toEqual({ argv: ['auth', 'login', SERVER], created: [] });
  });

  it('a 403 insufficient_scope: the `toolrun auth login SERVER --scope …` of the error', async () => {
    const result = await remote('/fine/mcp', true)(['exec', `${SERVER}:echo`]);
    expect(result.exitCode).toBe(4);
    expect(pasteInBash(suggestionAfter(result.stderr, 'run `', /`[^`]*$/))).toEqual({ argv: ['auth', 'login', SERVER, '--scope', SCOPE], created: [] });
  });

  it.each([['/quote/mcp'], ['/control/mcp']])('%s: a challenge scope that is not RFC 6749 syntax is refused (exit 4), no login suggested', async (path) => {
    const result = await remote(path, true)(['exec', `${SERVER}:echo`]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('which is not RFC 6749 scope syntax');
    expect(result.stderr).not.toContain('auth login');
    expect(result.stderr).not.toMatch(/[\t\u009b]/);
  });

  it('--scope that is not RFC 6749 syntax is a usage error (exit 2); oauth.scope in the config, a config error (exit 3)', async () => {
    const result = await remote('/fine/mcp', false)(['auth', 'login', SERVER, '--scope', 'a"b']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is not a list of OAuth scopes');
    const config = writeTempConfig({ mcpServers: { r: { url: `${base}/fine/mcp`, oauth: { scope: 'read\nwrite' } } } });
    const validate = await runInProcess(['--config', config, 'validate']);
    expect(validate.exitCode).toBe(3);
    expect(validate.stdout + validate.stderr).toContain('mcpServers.r.oauth.scope: must be OAuth scopes (RFC 6749');
  });
});
