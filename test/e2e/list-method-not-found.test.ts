import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RunningBackend } from '../helpers/databases.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, writeTempConfig } from '../helpers/temp-config.js';

// Issue 47 item 1: a server that answers a list request with -32601 (Method not found) has none of
// those items. server-postgres 0.6.2 advertises resources and has no resources/templates/list: its
// snapshot and lint failed whole, and the other servers of the config were never linted.

const SNAPSHOT_OF_NO_TEMPLATES = {
  prompts: [],
  protocolVersion: '2025-11-25',
  resourceTemplates: [],
  resources: [{ mimeType: 'application/json', name: 'users table schema', uri: 'postgres://db/users/schema' }],
  server: { name: 'no-templates' },
  toolrunSnapshot: 1,
  tools: [
    {
      description: 'Run a read-only SQL query',
      inputSchema: { properties: { sql: { description: 'The SQL to run', type: 'string' } }, required: ['sql'], type: 'object' },
      name: 'query',
    },
  ],
};

describe('a server without resources/templates/list (-32601)', () => {
  const config = () => writeTempConfig({ mcpServers: { pg: fixtureServer('no-templates-server.js'), everything: { command: process.execPath, args: [SERVER_EVERYTHING] } } });

  it('mcp snapshot: its templates are an empty list, the rest as listed', async () => {
    const result = await runCleanInProcess(['--config', config(), 'mcp', 'snapshot', 'pg']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(SNAPSHOT_OF_NO_TEMPLATES);
  });

  it('mcp lint of the whole config lints it and the other server', async () => {
    const result = await runCleanInProcess(['--config', config(), '--json', 'mcp', 'lint', '--target', 'openai']);
    expect(result.stderr).not.toContain('Method not found');
    const report = JSON.parse(result.stdout) as { servers: Array<{ server: string; tools: number }> };
    expect(report.servers.map((server) => server.server)).toEqual(['pg', 'everything']);
    expect(report.servers[0]).toEqual({ server: 'pg', tools: 1 });
    expect(report.servers[1]!.tools).toBeGreaterThan(0);
  });

  it('mcp lint lists tools alone: a server whose database is down (resources/list fails) is linted beside the others', async () => {
    const path = writeTempConfig({ mcpServers: { down: fixtureServer('backend-down-server.js'), everything: { command: process.execPath, args: [SERVER_EVERYTHING] } } });
    const result = await runCleanInProcess(['--config', path, '--json', 'mcp', 'lint', '--target', 'openai']);
    expect(result.stderr).not.toContain('ECONNREFUSED');
    const report = JSON.parse(result.stdout) as { servers: Array<{ server: string; tools: number }> };
    expect(report.servers.map((server) => server.server)).toEqual(['down', 'everything']);
    expect(report.servers[0]).toEqual({ server: 'down', tools: 1 });
  });

  it('resources --templates: none, exit 0; resources still lists its resource', async () => {
    const path = writeTempConfig({ mcpServers: { pg: fixtureServer('no-templates-server.js') } });
    expect(await runInProcess(['--config', path, 'resources', '--templates'])).toEqual({ exitCode: 0, stdout: '', stderr: 'no resource templates: pg offers resources but lists none' });
    const listed = await runInProcess(['--config', path, '--json', 'resources']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ resources: [{ server: 'pg', uri: 'postgres://db/users/schema', name: 'users table schema', mimeType: 'application/json' }] });
  });

  it('mcp conform still judges it: resources are advertised, so the templates check fails', async () => {
    const result = await runInProcess(['--config', config(), '--json', 'mcp', 'conform', 'pg']);
    expect(result.exitCode).toBe(1);
    const checks = (JSON.parse(result.stdout) as { checks: Array<{ id: string; verdict: string; evidence?: unknown }> }).checks;
    expect(checks.find((check) => check.id.includes('templates'))).toMatchObject({ verdict: 'fail' });
  });
});

describe('the real @modelcontextprotocol/server-postgres 0.6.2 on a PostgreSQL', () => {
  let pg: RunningBackend | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });
  const config = () => writeTempConfig({ mcpServers: { pg: { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-postgres/dist/index.js'), pg!.url] } } });

  it('mcp snapshot and mcp lint take its API: no templates, its query tool', async (context) => {
    // startPostgres said "[skip] …" when PostgreSQL is not installed.
    if (!pg) return context.skip();
    const path = config();
    const snapshot = await runCleanInProcess(['--config', path, 'mcp', 'snapshot', 'pg']);
    expect(snapshot.stderr).toBe('');
    expect(snapshot.exitCode).toBe(0);
    expect(JSON.parse(snapshot.stdout)).toMatchObject({ server: { name: 'example-servers/postgres' }, resourceTemplates: [], tools: [{ name: 'query' }] });
    const lint = await runCleanInProcess(['--config', path, '--json', 'mcp', 'lint', '--target', 'openai']);
    expect(lint.stderr).toBe('');
    expect(JSON.parse(lint.stdout)).toMatchObject({ servers: [{ server: 'pg', tools: 1 }] });
  });
});
