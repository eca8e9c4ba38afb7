import { beforeAll, describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, SERVER_EVERYTHING, writeTempConfig } from '../helpers/temp-config.js';

const everything = { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] };

describe('toolrun complete (completion/complete, SPEC §15)', () => {
  let config: string;
  beforeAll(() => {
    config = writeTempConfig({
      mcpServers: {
        everything,
        askback: fixtureServer('ask-back-server.js'),
        plain: fixtureServer('ask-back-server.js', { env: { COMPLETIONS: '0' } }),
        modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }),
      },
    });
  });

  it("prints a prompt argument's values one per line (server-everything)", async () => {
    const result = await runCleanInProcess(['--config', config, 'complete', 'everything', 'prompt', 'completable-prompt', 'department', 'S']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'Sales\nSupport' });
    expect(result.stderr).toContain('2 values · mcp:everything');
  });

  it('sends --context arguments, on which the values depend', async () => {
    const result = await runInProcess(['--config', config, 'complete', 'everything', 'prompt', 'completable-prompt', 'name', '--context', 'department=Sales']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'David\nEve\nFrank' });
    const fixture = await runInProcess(['--config', config, 'complete', 'askback', 'prompt', 'greet', 'city', 'P', '--context', 'country=PT']);
    expect(fixture).toMatchObject({ exitCode: 0, stdout: 'Porto' });
  });

  it("completes a resource template's variable", async () => {
    const result = await runInProcess(['--config', config, 'complete', 'askback', 'resource', 'note://{id}', 'id']);
    expect(result).toMatchObject({ exitCode: 0, stdout: '1\n2\n3' });
  });

  it("--json prints the server's whole completion", async () => {
    const result = await runInProcess(['--json', '--config', config, 'complete', 'askback', 'prompt', 'greet', 'city', 'P']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ values: ['Paris', 'Porto', 'Prague'], total: 3, hasMore: false });
  });

  it('completes in the 2026-07-28 era (a v2-SDK server)', async () => {
    const result = await runInProcess(['--config', config, 'complete', 'modern', 'prompt', 'ask', 'tone', 'c']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'calm\ncheerful\ncurt' });
  });

  it("an unknown prompt is exit 2 with the server's words", async () => {
    const result = await runCleanInProcess(['--config', config, 'complete', 'everything', 'prompt', 'nope', 'x']);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toContain("✖ MCP server 'everything' answered completion/complete (prompt) for 'nope': Prompt nope not found");
    const modern = await runInProcess(['--config', config, 'complete', 'modern', 'prompt', 'nope', 'x']);
    expect(modern).toMatchObject({ exitCode: 2, stdout: '' });
    expect(modern.stderr).toContain("✖ MCP server 'modern' answered completion/complete (prompt) for 'nope': Prompt nope not found");
  });

  it('a server without the completions capability is exit 2, named, nothing sent', async () => {
    const result = await runCleanInProcess(['--config', config, 'complete', 'plain', 'prompt', 'greet', 'city']);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toContain("✖ MCP server 'plain' does not offer completions (no 'completions' capability in its handshake)");
  });

  it('a kind other than prompt or resource is a usage error; an unreachable server exit 4', async () => {
    const bad = await runInProcess(['--config', config, 'complete', 'askback', 'tool', 'greet', 'city']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("✖ complete takes 'prompt NAME' or 'resource TEMPLATE', not 'tool'");
    const gone = writeTempConfig({ mcpServers: { gone: { command: '/nonexistent/server' } }, retry: { attempts: 1, baseDelayMs: 10 } });
    const unreachable = await runInProcess(['--config', gone, 'complete', 'gone', 'prompt', 'greet', 'city']);
    expect(unreachable.exitCode).toBe(4);
    expect(unreachable.stderr).toContain("✖ cannot complete: MCP server 'gone' could not be connected");
  });
});
