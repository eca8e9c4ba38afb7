import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureHome } from '../helpers/host-fixtures.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';

interface HostsJson {
  files: Array<{
    path: string;
    problems: string[];
    entries: Array<{ name: string; command?: string; args?: string[]; env?: string[]; disabled: boolean; state: string; reason?: string; fix?: string }>;
  }>;
}

const HAND_ROLLED = pathToFileURL(join(import.meta.dirname, '..', '..', 'fixtures', 'servers', 'lib', 'hand-rolled.js')).href;
// A tool that answers with how it was started: its script, its arguments, and the length (never the value) of API_KEY.
const LAUNCH_SERVER = `import { send, serve } from ${JSON.stringify(HAND_ROLLED)};
serve({ name: 'launch', listTools: () => ({ tools: [{ name: 'launch', inputSchema: { type: 'object' } }] }),
  callTool: ({ id }) => send({ id, result: { content: [{ type: 'text', text: JSON.stringify({ script: process.argv[1], args: process.argv.slice(2), keyLength: process.env.API_KEY?.length }) }] } }) });
`;
const KEY = 'sk-ext-secret-123456';
const FIX = 'set it in Claude Desktop → Settings → Extensions; toolrun cannot read values Claude Desktop encrypts';

/** Claude Desktop's data folder (Linux layout) with its config and installed extensions, as the installer writes them. */
function claudeWithExtensions() {
  const f = fixtureHome();
  const data = join(f.home, '.config', 'Claude');
  const extension = (id: string, manifest: unknown, settings?: unknown) => {
    f.write(join(data, 'Claude Extensions', id, 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    if (settings !== undefined) f.write(join(data, 'Claude Extensions Settings', `${id}.json`), JSON.stringify(settings));
    return join(data, 'Claude Extensions', id);
  };
  const server = (args: string[], env?: Record<string, string>) => ({ type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args, ...(env ? { env } : {}) } });
  f.write(join(data, 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { desktop: { command: 'desktop-server' } } }));
  const files = extension(
    'local.files',
    {
      manifest_version: '0.3',
      name: 'files',
      version: '1.0.0',
      server: server(['${__dirname}/server/index.js', '${user_config.dirs}', '--sep=${/}', '${NOT_A_VARIABLE}'], { API_KEY: '${user_config.api_key}' }),
      user_config: { dirs: { type: 'directory', title: 'Folders', multiple: true, required: true }, api_key: { type: 'string', title: 'API key' } },
    },
    { isEnabled: true, userConfig: { dirs: ['/srv/a b', '/srv/c'], api_key: KEY } },
  );
  f.write(join(files, 'server', 'index.js'), LAUNCH_SERVER);
  extension('off', { name: 'off', server: server(['x.js']) }, { isEnabled: false });
  extension('no.settings', { name: 'nosettings', server: server(['x.js']) });
  const encrypted = { name: 'secret', server: server(['x.js'], { TOKEN: '${user_config.token}' }), user_config: { token: { type: 'string', title: 'Token', sensitive: true, required: true } } };
  extension('secret', encrypted, { isEnabled: true, userConfig: { token: '__encrypted__:djEwAAAAsecretbytes' } });
  extension('needs', { ...encrypted, name: 'needs' }, { isEnabled: true, userConfig: {} });
  extension('blocked', { name: 'blocked', server: server(['x.js']) }, { isEnabled: true, orgBlockedReason: 'not on the allowlist' });
  extension('broken', '{"name": "broken",');
  extension('clash', { name: 'desktop', server: server(['x.js']) }, { isEnabled: true });
  return { ...f, data, files };
}

const ext = (f: { data: string }, id: string) => join(f.data, 'Claude Extensions', id, 'manifest.json');
const settingsOf = (f: { data: string }, id: string) => join(f.data, 'Claude Extensions Settings', `${id}.json`);

describe('Claude Desktop extensions (Claude Extensions/<id>/manifest.json)', () => {
  it('toolrun hosts --json lists each extension as a user file: enabled, disabled, no settings, encrypted, required, blocked, malformed, clash; the key is not printed', async () => {
    const f = claudeWithExtensions();
    const result = await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain(KEY);
    expect(result.stdout).not.toContain('secretbytes');
    const files = Object.fromEntries((JSON.parse(result.stdout) as HostsJson).files.map((file) => [file.path, file]));
    expect(files[ext(f, 'local.files')]!.entries).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: process.execPath,
        args: [join(f.files, 'server', 'index.js'), '/srv/a b', '/srv/c', '--sep=/', '$${NOT_A_VARIABLE}'],
        env: ['API_KEY'],
        disabled: false,
        state: 'enabled',
        unsupported: [],
        unresolved: [],
      },
    ]);
    const state = (id: string) => {
      const file = files[ext(f, id)]!;
      return file.problems.length > 0 ? file.problems : file.entries.map((entry) => [entry.name, entry.state, entry.reason, entry.fix].filter(Boolean).join(' | '));
    };
    expect(state('off')).toEqual(['off | disabled']);
    expect(state('no.settings')).toEqual(['nosettings | disabled']);
    expect(state('secret')).toEqual([`secret | host-only | its option token is stored encrypted in ${settingsOf(f, 'secret')} | ${FIX}`]);
    expect(state('needs')).toEqual([`needs | host-only | its required option token has no value in ${settingsOf(f, 'needs')} | ${FIX}`]);
    expect(state('blocked')).toEqual([
      `blocked | denied | blocked by your organization in Claude Desktop (${settingsOf(f, 'blocked')}): not on the allowlist | Claude Desktop does not start it; ask your organization to allow it`,
    ]);
    expect(state('broken')).toEqual(["1:19: invalid JSON: '}' expected; reinstall the extension in Claude Desktop"]);
    expect(state('clash')).toEqual([
      `extension 'desktop' has the name of a server in ${join(f.data, 'claude_desktop_config.json')}, which is used instead: rename or remove that entry to use the extension`,
    ]);
    const table = await runToolrun(['hosts'], { cwd: f.project, env: f.env });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).not.toContain(KEY);
    expect(table.stdout).toContain(
      `claude-desktop user ${ext(f, 'local.files')}  1 server\n  files  stdio ${process.execPath} ${join(f.files, 'server', 'index.js')} /srv/a b /srv/c --sep=/ $\${NOT_A_VARIABLE}\n`,
    );
    expect(table.stdout).toContain(`claude-desktop user ${ext(f, 'no.settings')}  1 server\n  nosettings  stdio ${process.execPath} x.js  disabled (skipped)\n`);
  });

  it('--host claude-desktop exec runs an enabled node extension as composed: ${__dirname}, a list argument, the key in env', async () => {
    const f = claudeWithExtensions();
    const result = await runCleanInProcess(['--host', 'claude-desktop', 'exec', 'files:launch'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ script: join(f.files, 'server', 'index.js'), args: ['/srv/a b', '/srv/c', '--sep=/', '${NOT_A_VARIABLE}'], keyLength: KEY.length });
    expect(result.stderr.split('\n').filter((line) => line.startsWith('⚠'))).toEqual([
      `⚠ claude-desktop config ${ext(f, 'broken')} set aside: 1:19: invalid JSON: '}' expected; reinstall the extension in Claude Desktop (its servers are not started; the other files' are)`,
      `⚠ claude-desktop config ${ext(f, 'clash')} set aside: extension 'desktop' has the name of a server in ${join(f.data, 'claude_desktop_config.json')}, which is used instead: rename or remove that entry to use the extension (its servers are not started; the other files' are)`,
    ]);
    expect(result.stderr).not.toContain(KEY);
  });

  it('an encrypted value, a missing required value: named, never started (exit 4); a disabled one is unknown (exit 2); a failing call does not print the key', async () => {
    const f = claudeWithExtensions();
    const secret = await runCleanInProcess(['--host', 'claude-desktop', 'exec', 'secret:x'], { cwd: f.project, env: f.env });
    expect(secret.exitCode).toBe(4);
    expect(secret.stderr).toContain(`✖ MCP server 'secret' not started\n  Reason: its option token is stored encrypted in ${settingsOf(f, 'secret')}\n  Check: ${FIX}\n`);
    expect(secret.stderr).not.toContain('secretbytes');
    const needs = await runCleanInProcess(['--host', 'claude-desktop', 'exec', 'needs:x'], { cwd: f.project, env: f.env });
    expect(needs.exitCode).toBe(4);
    expect(needs.stderr).toContain(`Reason: its required option token has no value in ${settingsOf(f, 'needs')}\n`);
    const off = await runCleanInProcess(['--host', 'claude-desktop', 'exec', 'off:x'], { cwd: f.project, env: f.env });
    expect(off.exitCode).toBe(2);
    expect(off.stderr).toContain("✖ off:x: unknown MCP server 'off'; configured servers: desktop, files, blocked, needs, secret");
    const missing = await runCleanInProcess(['--host', 'claude-desktop', 'exec', 'files:nope'], { cwd: f.project, env: f.env });
    expect(missing.exitCode).toBe(2);
    expect(`${missing.stdout}${missing.stderr}`).not.toContain(KEY);
  });

  it("hosts import writes the composed entry into the toolrun config, nothing into Claude Desktop's folder; blocked and encrypted ones are not imported", async () => {
    const f = claudeWithExtensions();
    const before = readdirSync(f.data, { recursive: true }).sort();
    const target = join(f.root, 'toolrun.json');
    const result = await runCleanInProcess(['hosts', 'import', 'claude-desktop', 'files', 'secret', 'blocked', '--into', target], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({
      mcpServers: { files: { command: process.execPath, args: [join(f.files, 'server', 'index.js'), '/srv/a b', '/srv/c', '--sep=/', '$${NOT_A_VARIABLE}'], env: { API_KEY: KEY } } },
    });
    expect(result.stderr).toContain(`⚠ secret not imported (${ext(f, 'secret')}): its option token is stored encrypted in ${settingsOf(f, 'secret')}; ${FIX}`);
    expect(result.stderr).toContain(`⚠ blocked not imported (${ext(f, 'blocked')}): blocked by your organization in Claude Desktop`);
    expect(result.stdout).not.toContain(KEY);
    expect(readdirSync(f.data, { recursive: true }).sort()).toEqual(before);
    expect(existsSync(join(f.files, 'toolrun.json'))).toBe(false);
  });
});
