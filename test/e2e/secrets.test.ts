import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// One secret-laden config, every command (SPEC §8): none of these strings may reach stdout or stderr.
const SECRETS = ['PASSWORD123', 'QUERYKEY123', 'headertoken12345', 'sk-abcdef123456', 'pgpass9876', 'plainsecret42', 'dbpass77', 'tok-xyz-12345', 'expandedpw55'];
const config = writeTempConfig({
  retry: { attempts: 1, baseDelayMs: 10 },
  mcpServers: {
    zwave: fixtureServer('zwave-server.js', {
      args: [
        join(import.meta.dirname, '..', '..', 'fixtures', 'servers', 'zwave-server.js'),
        '--token',
        'sk-abcdef123456',
        '--db=postgres://u:pgpass9876@h/db',
        '--api-key=plainsecret42',
        '--url=${DB_URL}',
      ],
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
      const result = await runToolrun(['--config', config, ...args], { env });
      const output = `${result.stdout}\n${result.stderr}`;
      for (const secret of SECRETS) expect(output, `${secret} leaked`).not.toContain(secret);
      // Something was printed: the masks are there, not an empty run.
      expect(output.length).toBeGreaterThan(0);
    },
    30_000,
  );

  it('mcp list shows where the secrets were, masked', async () => {
    const result = await runToolrun(['--config', config, 'mcp', 'list'], { env });
    expect(result.stdout).toContain('http://user:***@127.0.0.1:9/mcp?api_key=***&x=1');
    expect(result.stdout).toContain('--token *** --db=postgres://u:***@h/db --api-key=*** --url=${DB_URL}');
  });

  it("doctor's config step masks env values by shape and args after ${VAR} expansion", async () => {
    const result = await runToolrun(['--config', config, '--json', 'mcp', 'doctor', 'zwave'], { env });
    const step = JSON.parse(result.stdout).steps.find((candidate: { id: string }) => candidate.id === 'config');
    expect(step.data.env).toEqual({ DATABASE_URL: 'postgres://user:***@host/db', API_TOKEN: '***' });
    expect(step.data.args.slice(1)).toEqual(['--token', '***', '--db=postgres://u:***@h/db', '--api-key=***', '--url=postgres://admin:***@db.internal/app']);
  });
});
