import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §16, issue #23 item 3: a server's API saved as a stable snapshot, and diffed with each change classified.
describe('toolrun mcp snapshot and mcp diff', () => {
  const everything = join(FIXTURES, 'configs', 'everything.json');

  it('snapshots server-everything the same twice, tools sorted; a diff against the server itself is "no changes" (exit 0)', async () => {
    const snapshot = () => runToolrun(['--config', everything, 'mcp', 'snapshot', 'everything'], { stripFinalNewline: false });
    const [first, second] = await Promise.all([snapshot(), snapshot()]);
    expect(first).toMatchObject({ exitCode: 0 });
    expect(second.stdout).toBe(first.stdout);
    expect(first.stdout.endsWith('}\n')).toBe(true);
    const api = JSON.parse(first.stdout);
    expect(Object.keys(api)).toEqual(['prompts', 'protocolVersion', 'resourceTemplates', 'resources', 'server', 'toolrunSnapshot', 'tools']);
    expect(api.server).toEqual({ name: 'mcp-servers/everything' });
    const names = api.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('echo');
    expect(names).toEqual([...names].sort());
    expect(first.stdout).not.toContain('_meta');
    const file = join(tempDir(), 'api.json');
    writeFileSync(file, first.stdout);
    const same = await runCleanInProcess(['--config', everything, 'mcp', 'diff', file, 'everything']);
    expect(same).toMatchObject({ exitCode: 0, stdout: `no changes (${file} → server 'everything')` });
  });

  const config = writeTempConfig({ mcpServers: { v1: fixtureServer('api-version-server.js'), v2: fixtureServer('api-version-server.js', { env: { API_VERSION: '2' } }) } });

  it('lists the changes between two servers, breaking first and marked, and exits 1', async () => {
    const result = await runCleanInProcess(['--config', config, 'mcp', 'diff', 'v1', 'v2']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(
      [
        'BREAKING  tools.legacy — tool removed: clients that use it fail',
        'BREAKING  tools.search.inputSchema.properties.filter.properties.kind — enum narrowed: "issue" no longer accepted',
        'BREAKING  tools.search.inputSchema.properties.limit — type narrowed from number to integer: values of the dropped type are rejected',
        'BREAKING  tools.search.inputSchema.properties.region — new required argument: clients that do not send it are rejected',
        'BREAKING  tools.search.outputSchema.properties.total — output field removed: clients that read it get nothing',
        'BREAKING  prompts.summarize.arguments.style — new required prompt argument: clients that do not send it are rejected',
        'ok        tools.search.inputSchema.properties.verbose — new optional argument',
        'ok        tools.fresh — new tool',
        "6 breaking changes, 2 others (server 'v1' → server 'v2')",
        // The token and lint delta of the changed tools (issue #34).
        '+14 tokens in the changed tool definitions (88 → 102, o200k_base)',
        'new mcp warning: fresh $.description — no description: the model chooses tools by their descriptions',
        'fixed for mcp: legacy $.description — no description: the model chooses tools by their descriptions',
      ].join('\n'),
    );
  });

  it('reads a recording: the tools it listed are compared, the lists it never asked for are not (said on stderr)', async () => {
    const recording = join(tempDir(), 'v1.rec');
    expect((await runInProcess(['--config', config, 'mcp', 'check-stdout', 'v1', '--save', recording])).exitCode).toBe(0);
    const result = await runInProcess(['--config', config, '--json', 'mcp', 'diff', recording, 'v2']);
    expect(result.exitCode).toBe(1);
    const diff = JSON.parse(result.stdout);
    expect(diff.breaking).toBe(true);
    expect(
      diff.changes.filter((change: { breaking: boolean }) => change.breaking).map((change: { kind: string; what: string; path: string }) => `${change.kind} ${change.what} ${change.path}`),
    ).toEqual([
      'removed tool tools.legacy',
      'changed argument tools.search.inputSchema.properties.filter.properties.kind',
      'changed argument tools.search.inputSchema.properties.limit',
      'added argument tools.search.inputSchema.properties.region',
      'removed outputField tools.search.outputSchema.properties.total',
    ]);
    expect(diff.changes[2]).toEqual({
      kind: 'changed',
      what: 'argument',
      path: 'tools.search.inputSchema.properties.limit',
      breaking: true,
      before: 'number',
      after: 'integer',
      reason: 'type narrowed from number to integer: values of the dropped type are rejected',
    });
    expect(result.stderr).toContain(`⚠ prompts not compared: ${recording} holds no answer to prompts/list (a recording holds only what its session asked for)`);
  });

  it('an unknown server name and a malformed snapshot file are exit 2, in one line naming them', async () => {
    const unknown = await runInProcess(['--config', config, 'mcp', 'diff', 'v1', 'nope']);
    expect(unknown).toMatchObject({ exitCode: 2, stdout: '' });
    expect(unknown.stderr).toBe("✖ unknown MCP server 'nope'; configured servers: v1, v2");
    const broken = join(tempDir(), 'api.json');
    writeFileSync(broken, '{"toolrunSnapshot": 1, "server": {"name": "x"}, "tools": {}}');
    const malformed = await runInProcess(['mcp', 'diff', broken, broken]);
    expect(malformed).toMatchObject({ exitCode: 2, stdout: '' });
    expect(malformed.stderr).toBe(`✖ ${broken}: "tools" must be an array, found object`);
  });
});
