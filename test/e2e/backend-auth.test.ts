import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBackends } from '../helpers/databases.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { writeTempConfig } from '../helpers/temp-config.js';

// Issue #19 item 3: a server whose database refuses its credentials is named at once, with the fix,
// and not retried (the real server-redis used to hang 3 × 10 s; the real server-postgres gave only
// "see its stderr"). Real PostgreSQL and redis-server on 127.0.0.1 (test/helpers/databases.ts).

const POSTGRES_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-postgres', 'dist', 'index.js');
const REDIS_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-redis', 'dist', 'index.js');

type Step = { id: string; status: string; finding: string; fix?: string; data: Record<string, unknown> };
const stepsOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout).steps as Step[]).map((step) => [step.id, step]));

const backends = useBackends();

describe('server-postgres against a PostgreSQL that refuses it', () => {
  it('a wrong password: doctor and mcp list --check give the fix', async (context) => {
    if (!backends.postgres) return context.skip();
    const url = backends.postgres.url.replace(/:[^:@]+@/, ':wrong-password@');
    const config = writeTempConfig({ mcpServers: { pg: { command: process.execPath, args: [POSTGRES_SERVER, url] } } });
    const fix = "fix the user or password in the server's database URL (or its settings); they must match the database's";
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'pg']);
    expect(doctor.exitCode).toBe(1);
    expect(stepsOf(doctor.stdout).tools).toMatchObject({ status: 'fail', finding: expect.stringContaining('resources/list failed: password authentication failed for user "toolrun"'), fix });
    expect(doctor.stdout).not.toContain('wrong-password');
    const list = await runCleanInProcess(['--json', '--config', config, 'mcp', 'list', '--check']);
    expect(list.exitCode).toBe(1);
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({ status: 'problem', fix });
  });

  it('a database that does not exist: the fix names it', async (context) => {
    if (!backends.postgres) return context.skip();
    const url = backends.postgres.url.replace(/\/postgres$/, '/toolrun_nope');
    const config = writeTempConfig({ mcpServers: { pg: { command: process.execPath, args: [POSTGRES_SERVER, url] } } });
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'pg']);
    expect(doctor.exitCode).toBe(1);
    expect(stepsOf(doctor.stdout).tools).toMatchObject({ status: 'fail', fix: "fix the database name in the server's database URL, or create it (createdb toolrun_nope)" });
  });
});

describe('server-redis against a Redis that refuses its password', () => {
  it('a password Redis does not want: named at once, not retried, not a 10 s hang', async (context) => {
    if (!backends.redis) return context.skip();
    const config = writeTempConfig({ mcpServers: { cache: { command: process.execPath, args: [REDIS_SERVER, backends.redis.url.replace('redis://', 'redis://:sesame@')] } } });
    const startedAt = Date.now();
    const result = await runCleanInProcess(['--config', config, 'exec', 'cache:get', 'key=a']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'cache'");
    expect(result.stderr).toContain('  Reason: the server gave Redis a password, but this Redis has none configured (ERR AUTH … called without any password configured)');
    expect(result.stderr).toContain('  Check: remove the password from the Redis URL, or configure it on Redis (requirepass)');
    expect(result.stderr).not.toContain('sesame');
    // It waited out connectTimeoutMs (10 s) three times before.
    expect(Date.now() - startedAt).toBeLessThan(9000);
  });

  it('a wrong password (WRONGPASS): the same, with the fix for it', async (context) => {
    if (!backends.redis) return context.skip();
    execFileSync('redis-cli', ['-p', String(backends.redis.port), 'CONFIG', 'SET', 'requirepass', 'right-password']);
    try {
      const config = writeTempConfig({ mcpServers: { cache: { command: process.execPath, args: [REDIS_SERVER, backends.redis.url.replace('redis://', 'redis://:wrong-password@')] } } });
      const result = await runCleanInProcess(['--config', config, 'exec', 'cache:get', 'key=a']);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'cache'");
      expect(result.stderr).toContain('  Reason: Redis refused the user or password the server gave (WRONGPASS)');
      expect(result.stderr).toContain("  Check: fix the password (and user) given in the Redis URL, or in the server's settings");
    } finally {
      execFileSync('redis-cli', ['-p', String(backends.redis.port), '-a', 'right-password', '--no-auth-warning', 'CONFIG', 'SET', 'requirepass', '']);
    }
  });
});
