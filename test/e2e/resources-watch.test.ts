import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { startV2HttpServer } from '../helpers/http-fixture.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const everything = { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] };

/** Starts a watch, waits until stdout shows `until`, then sends Ctrl-C; the finished run and whether nothing is left. */
async function watchThenInterrupt(args: string[], until: string) {
  const marker = newProcessMarker();
  const child = runToolrun(args, { env: marker.env });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await waitFor(() => stdout.includes(until));
  child.kill('SIGINT');
  const result = await child;
  return { result, left: await waitForNoProcesses(marker.alive) };
}

describe('toolrun resources watch (SPEC §15)', () => {
  let config: string;
  let methodsLog: string;
  beforeAll(() => {
    methodsLog = join(tempDir(), 'methods.log');
    config = writeTempConfig({
      mcpServers: {
        everything,
        counter: fixtureServer('ask-back-server.js', { env: { METHODS_LOG: methodsLog } }),
        dying: fixtureServer('ask-back-server.js', { env: { DIE_AFTER_UPDATES: '1' } }),
        nosub: fixtureServer('ask-back-server.js', { env: { SUBSCRIBE: '0' } }),
        modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }),
      },
    });
  });

  it('prints the contents, re-reads on each update of that URI, and Ctrl-C unsubscribes and exits 130', async () => {
    const { result, left } = await watchThenInterrupt(['--config', config, 'resources', 'watch', 'note://counter', '--server', 'counter'], 'version 2');
    expect(result.exitCode).toBe(130);
    // Updates for note://other are not this watch's: three reads, not five.
    expect(result.stdout).toBe('version 0\nversion 1\nversion 2');
    expect(result.stderr).toContain('● note://counter · mcp:counter · watching (Ctrl-C ends)\n↻ note://counter updated (1)\n');
    expect(left).toEqual([]);
    const methods = readFileSync(methodsLog, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('resources/'));
    expect(methods).toEqual(['resources/subscribe', 'resources/read', 'resources/read', 'resources/read', 'resources/unsubscribe']);
  });

  it('--json is NDJSON: one document per read', async () => {
    const { result } = await watchThenInterrupt(['--json', '--config', config, 'resources', 'watch', 'note://counter', '--server', 'counter'], '"update":2');
    expect(result.exitCode).toBe(130);
    const lines = result.stdout.split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.update, line.contents[0].text])).toEqual([
      [0, 'version 0'],
      [1, 'version 1'],
      [2, 'version 2'],
    ]);
    expect(lines[0]).toMatchObject({ server: 'counter', uri: 'note://counter' });
  });

  it('subscribes to server-everything and unsubscribes on Ctrl-C (the server logs both)', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const { result, left } = await watchThenInterrupt(['--config', config, 'resources', 'watch', uri, '--server', 'everything'], '# Everything Server');
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toMatch(/^# Everything Server – Architecture/);
    expect(result.stderr).toContain(`[everything] info: Received Subscribe Resource request for URI: ${uri}`);
    expect(left).toEqual([]);
  });

  it('a server that dies mid-watch ends it with exit 4 and one line', async () => {
    const result = await runCleanInProcess(['--config', config, 'resources', 'watch', 'note://counter', '--server', 'dying']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('version 0\nversion 1\nversion 2');
    expect(result.stderr).toContain("✖ MCP server 'dying' exited (code 3) while watching 'note://counter'; its last stderr line: ask-back-server: fatal: the counter broke");
  });

  it('a server without resources.subscribe is exit 2, with the way to read it once', async () => {
    const result = await runCleanInProcess(['--config', config, 'resources', 'watch', 'note://counter', '--server', 'nosub']);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toContain(
      "✖ MCP server 'nosub' does not offer resource subscriptions (no resources.subscribe in its capabilities); read it once with: toolrun resources read note://counter --server nosub",
    );
    const modern = await runInProcess(['--config', config, 'resources', 'watch', 'test://greeting', '--server', 'modern']);
    expect(modern.exitCode).toBe(2);
    expect(modern.stderr).toContain("✖ MCP server 'modern' does not offer resource subscriptions");
  });

  it('an unknown URI is exit 2 with the server words', async () => {
    const result = await runCleanInProcess(['--config', config, 'resources', 'watch', 'note://nope', '--server', 'counter']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("✖ MCP server 'counter' answered resources/subscribe or resources/read for 'note://nope': Resource not found: note://nope");
    expect(existsSync(methodsLog)).toBe(true);
  });
});

describe('--log-level and list-changed notifications (SPEC §15)', () => {
  let config: string;
  let methodsLog: string;
  beforeAll(() => {
    methodsLog = join(tempDir(), 'methods.log');
    config = writeTempConfig({
      mcpServers: { askback: fixtureServer('ask-back-server.js', { env: { METHODS_LOG: methodsLog } }), modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }) },
    });
  });

  it('sends logging/setLevel and shows only messages at that level and above', async () => {
    const result = await runCleanInProcess(['--config', config, '--log-level', 'warning', 'exec', 'askback:logs']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'level=warning' });
    expect(readFileSync(methodsLog, 'utf8')).toContain('logging/setLevel warning\n');
    const shown = result.stderr.split('\n').filter((line) => line.includes('[askback]'));
    expect(shown).toEqual(['warning', 'error', 'critical', 'alert', 'emergency'].map((level) => `⚠ [askback] ${level} (fixture): ${level} line`));
  });

  it('in 2026-07-28 the level travels in the request _meta: no logs without it, the asked ones with it', async () => {
    const none = await runInProcess(['--config', config, 'exec', 'modern:log']);
    expect(none).toMatchObject({ exitCode: 0, stdout: 'logged' });
    expect(none.stderr).not.toContain('[modern]');
    const info = await runInProcess(['--config', config, '--log-level', 'info', 'exec', 'modern:log']);
    expect(info.stderr).toContain('[modern] info (fixture): info from v2');
    expect(info.stderr).not.toContain('debug from v2');
    const debug = await runInProcess(['--config', config, '--log-level', 'debug', 'exec', 'modern:log']);
    expect(debug.stderr).toContain('[modern] debug (fixture): debug from v2\n[modern] info (fixture): info from v2');
  });

  it('an unknown level is exit 2 naming the allowed ones', async () => {
    const result = await runInProcess(['--config', config, '--log-level', 'loud', 'exec', 'askback:logs']);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toContain("unknown log level 'loud'; use debug, info, notice, warning, error, critical, alert, emergency");
  });

  it('list-changed notifications are one stderr line each with --verbose, never on stdout', async () => {
    const verbose = await runInProcess(['--config', config, '--verbose', 'exec', 'askback:change']);
    expect(verbose).toMatchObject({ exitCode: 0, stdout: 'changed' });
    expect(verbose.stderr).toContain("server 'askback': tools list changed\nserver 'askback': resources list changed\nserver 'askback': prompts list changed");
    const quiet = await runInProcess(['--config', config, 'exec', 'askback:change']);
    expect(quiet.stderr).not.toContain('list changed');
  });
});

describe('toolrun resources watch on a 2026-07-28 server: subscriptions/listen (SPEC §15)', () => {
  let config: string;
  let methodsLog: string;
  beforeAll(() => {
    methodsLog = join(tempDir(), 'methods.log');
    config = writeTempConfig({
      mcpServers: {
        watched: fixtureServer('v2-server.js', { env: { LEGACY: 'reject', WATCH: '1', METHODS_LOG: methodsLog } }),
        dying: fixtureServer('v2-server.js', { env: { LEGACY: 'reject', WATCH: '1', DIE_AFTER_UPDATES: '1' } }),
        modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }),
      },
    });
  });

  it('listens for that URI, re-reads on each update, and Ctrl-C cancels the stream and exits 130', async () => {
    const { result, left } = await watchThenInterrupt(['--config', config, 'resources', 'watch', 'test://counter', '--server', 'watched'], 'version 2');
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toBe('version 0\nversion 1\nversion 2');
    expect(result.stderr).toContain('● test://counter · mcp:watched · watching (Ctrl-C ends)\n↻ test://counter updated (1)\n');
    expect(result.stderr).not.toContain('list changed');
    expect(left).toEqual([]);
    // One listen stream, three reads, then the stream's cancel (its request id is the v2 client's 'listen:N').
    const methods = readFileSync(methodsLog, 'utf8')
      .split('\n')
      .filter((line) => /^(subscriptions|resources|notifications\/cancelled)/.test(line));
    expect(methods).toEqual(['subscriptions/listen', 'resources/read', 'resources/read', 'resources/read', 'notifications/cancelled listen:0']);
  });

  it('--json is NDJSON: one document per read', async () => {
    const { result } = await watchThenInterrupt(['--json', '--config', config, 'resources', 'watch', 'test://counter', '--server', 'watched'], '"update":2');
    expect(result.exitCode).toBe(130);
    const lines = result.stdout.split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.update, line.contents[0].text])).toEqual([
      [0, 'version 0'],
      [1, 'version 1'],
      [2, 'version 2'],
    ]);
    expect(lines[0]).toMatchObject({ server: 'watched', uri: 'test://counter' });
  });

  it('with --verbose the stream also carries list-changed notifications, shown as one stderr line each', async () => {
    const { result } = await watchThenInterrupt(['--verbose', '--config', config, 'resources', 'watch', 'test://counter', '--server', 'watched'], 'version 2');
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain("server 'watched': resources list changed");
  });

  it('a server that dies mid-watch ends it with exit 4 and one line', async () => {
    const result = await runCleanInProcess(['--config', config, 'resources', 'watch', 'test://counter', '--server', 'dying']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('version 0\nversion 1\nversion 2');
    expect(result.stderr).toContain("✖ MCP server 'dying' exited (code 3) while watching 'test://counter'; its last stderr line: v2-server: fatal: the counter broke");
  });

  it('over Streamable HTTP: the listen stream is an SSE response; Ctrl-C closes it', async () => {
    const http = await startV2HttpServer({ LEGACY: 'reject', WATCH: '1' });
    try {
      const remote = writeTempConfig({ mcpServers: { remote: { url: http.url } } });
      const { result, left } = await watchThenInterrupt(['--config', remote, 'resources', 'watch', 'test://counter', '--server', 'remote'], 'version 2');
      expect(result.exitCode).toBe(130);
      expect(result.stdout).toBe('version 0\nversion 1\nversion 2');
      expect(left).toEqual([]);
    } finally {
      await http.stop();
    }
  });

  it('a server without resources.subscribe is exit 2, with the way to read it once', async () => {
    const result = await runCleanInProcess(['--config', config, 'resources', 'watch', 'test://greeting', '--server', 'modern']);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toContain(
      "✖ MCP server 'modern' does not offer resource subscriptions (no resources.subscribe in its capabilities); read it once with: toolrun resources read test://greeting --server modern",
    );
  });
});
