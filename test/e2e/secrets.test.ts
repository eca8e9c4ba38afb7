import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// One secret-laden config, every command (SPEC §8): none of these strings may reach stdout or stderr.
const SECRETS = ['PASSWORD123', 'QUERYKEY123', 'headertoken12345', 'sk-abcdef123456', 'pgpass9876', 'plainsecret42', 'dbpass77', 'tok-xyz-12345', 'expandedpw55'];
const config = writeTempConfig({
  retry: { attempts: 1, baseDelayMs: 10 },
  mcpServers: {
    zwave: fixtureServer('zwave-server.js', {
      args: [fixtureServerScript('zwave-server.js'), '--token', 'sk-abcdef123456', '--db=postgres://u:pgpass9876@h/db', '--api-key=plainsecret42', '--url=${DB_URL}'],
      env: { DATABASE_URL: 'postgres://user:dbpass77@host/db', API_TOKEN: 'tok-xyz-12345' },
    }),
    remote: { url: 'http://user:PASSWORD123@127.0.0.1:9/mcp?api_key=QUERYKEY123&x=1', headers: { Authorization: 'Bearer headertoken12345' } },
  },
});
const env = { DB_URL: 'postgres://admin:expandedpw55@db.internal/app' };

describe('no secret is printed, in any command (SPEC §8)', () => {
  it.each([
    [['mcp', 'list']],
    [['--json', 'mcp', 'list']],
    [['mcp', 'list', '--check']],
    [['--json', 'mcp', 'list', '--check']],
    [['list']],
    [['--json', 'validate']],
    [['validate']],
    [['exec', 'remote:x']],
    [['--json', 'exec', 'remote:x']],
    [['--verbose', 'exec', 'zwave:list_zwave_devices']],
    [['--json', '--verbose', 'exec', 'zwave:list_zwave_devices']],
    [['mcp', 'doctor', 'zwave']],
    [['--json', 'mcp', 'doctor', 'zwave']],
    [['mcp', 'doctor', 'remote']],
    [['--json', 'mcp', 'doctor', '--all']],
    [['time', 'zwave:list_zwave_devices', '-n', '2', '--warmup', '0']],
    [['--json', 'mcp', 'check-stdout', 'zwave', '--save', join(tempDir(), 'capture.out')]],
  ])(
    '%j',
    async (args) => {
      const result = await runInProcess(['--config', config, ...args], { env });
      const output = `${result.stdout}\n${result.stderr}`;
      for (const secret of SECRETS) expect(output, `${secret} leaked`).not.toContain(secret);
      // Something was printed: the masks are there, not an empty run.
      expect(output.length).toBeGreaterThan(0);
    },
    30_000,
  );

  it('mcp list shows where the secrets were, masked', async () => {
    const result = await runInProcess(['--config', config, 'mcp', 'list'], { env });
    expect(result.stdout).toContain('http://user:***@127.0.0.1:9/mcp?api_key=***&x=1');
    expect(result.stdout).toContain('--token *** --db=postgres://u:***@h/db --api-key=*** --url=${DB_URL}');
  });

  it("doctor's config step masks env values by shape and args after ${VAR} expansion", async () => {
    const result = await runInProcess(['--config', config, '--json', 'mcp', 'doctor', 'zwave'], { env });
    const step = JSON.parse(result.stdout).steps.find((candidate: { id: string }) => candidate.id === 'config');
    expect(step.data.env).toEqual({ DATABASE_URL: 'postgres://user:***@host/db', API_TOKEN: '***' });
    expect(step.data.args.slice(1)).toEqual(['--token', '***', '--db=postgres://u:***@h/db', '--api-key=***', '--url=postgres://admin:***@db.internal/app']);
  });
});

// Issue #19 item 12: a secret-looking variable expanded into an innocently named field. The value is
// not token-shaped and its own name says nothing, so only where it came from marks it secret.
describe('the value of a secret-looking ${VAR} is masked wherever it appears', () => {
  const token = 'innocentvalue1234';
  const expanded = writeTempConfig({
    retry: { attempts: 1, baseDelayMs: 10 },
    mcpServers: {
      gh: { command: process.execPath, args: [join(tempDir(), 'missing-${GITHUB_TOKEN}.js'), '--repo', '${GITHUB_TOKEN}'], env: { GH: '${GITHUB_TOKEN}' } },
      ok: fixtureServer('zwave-server.js', { env: { GH: '${GITHUB_TOKEN}' }, args: [fixtureServerScript('zwave-server.js'), 'x${GITHUB_TOKEN}'] }),
      remote: { url: 'http://127.0.0.1:9/mcp/${GITHUB_TOKEN}', headers: { 'X-Thing': '${GITHUB_TOKEN}' } },
    },
  });
  const tokenEnv = { GITHUB_TOKEN: token };

  it.each([
    [['mcp', 'doctor', 'gh']],
    [['--json', 'mcp', 'doctor', 'gh']],
    [['mcp', 'doctor', 'remote']],
    [['--json', 'mcp', 'doctor', 'remote']],
    [['mcp', 'list']],
    [['--json', 'mcp', 'list']],
    [['mcp', 'list', '--check']],
    [['--json', 'mcp', 'list', '--check']],
    [['-v', 'exec', 'gh:x']],
    [['--json', '-v', 'exec', 'gh:x']],
    [['-v', 'exec', 'remote:x']],
    [['-v', 'exec', 'ok:list_zwave_devices']],
  ])(
    '%j',
    async (args) => {
      const result = await runInProcess(['--config', expanded, ...args], { env: tokenEnv });
      const output = `${result.stdout}\n${result.stderr}`;
      expect(output.length).toBeGreaterThan(0);
      expect(output, 'the token leaked').not.toContain(token);
    },
    30_000,
  );

  it("doctor's config step shows where it was, masked", async () => {
    const result = await runInProcess(['--config', expanded, '--json', 'mcp', 'doctor', 'gh'], { env: tokenEnv });
    const step = JSON.parse(result.stdout).steps.find((candidate: { id: string }) => candidate.id === 'config');
    expect(step.data.env).toEqual({ GH: '***' });
    expect(step.data.args.slice(1)).toEqual(['--repo', '***']);
  });

  it("a recording's header masks it", async () => {
    const capture = join(tempDir(), 'capture.jsonl');
    await runInProcess(['--config', expanded, 'mcp', 'check-stdout', 'ok', '--save', capture], { env: tokenEnv });
    const header = readFileSync(capture, 'utf8').split('\n')[0]!;
    expect(header).toContain('"toolrun_recording":1');
    expect(header).toContain(' x***');
    expect(header).not.toContain(token);
  });

  it('a variable whose name says nothing is shown as it is', async () => {
    const plain = writeTempConfig({ mcpServers: { p: { command: process.execPath, args: ['${REPO_NAME}'] } } });
    const shown = await runInProcess(['--config', plain, '--json', 'mcp', 'doctor', 'p'], { env: { REPO_NAME: 'octocat-hello' } });
    expect(JSON.parse(shown.stdout).steps[0].data.args).toEqual(['octocat-hello']);
  });
});
