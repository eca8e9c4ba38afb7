import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §11: `mcp show FILE` turns a recording into a timeline.
describe('toolrun mcp show', () => {
  it('pairs each request with its response and latency, and lists notifications, errors and polluting lines', async () => {
    const config = writeTempConfig({ mcpServers: { noisy: fixtureServer('polluting-server.js') } });
    const file = join(tempDir(), 'noisy.rec');
    await runCleanInProcess(['--config', config, 'mcp', 'check-stdout', 'noisy', '--call', 'noisy', '--save', file]);
    const shown = await runInProcess(['--json', 'mcp', 'show', file]);
    expect(shown.exitCode).toBe(0);
    const timeline = JSON.parse(shown.stdout);
    expect(timeline.header).toMatchObject({ toolrun_recording: 1, server: 'noisy' });
    const described = timeline.events.map((event: { kind: string; from?: string; method?: string; text?: string; error?: { code: number } }) =>
      [event.kind, event.from, event.method ?? event.text, event.error?.code].filter((part) => part !== undefined).join(' '),
    );
    expect(described).toEqual([
      'request client server/discover',
      'pollution Loading config...',
      'pollution Server ready',
      'response server server/discover -32601',
      'request client initialize',
      'response server initialize',
      'notification client notifications/initialized',
      'request client tools/list',
      'response server tools/list',
      'request client ping',
      'response server ping',
      'request client tools/call',
      'pollution noisy tool called',
      'response server tools/call',
    ]);
    for (const event of timeline.events.filter((candidate: { kind: string }) => candidate.kind === 'response')) expect(event.latency_ms).toBeGreaterThan(0);
    expect(timeline.summary).toMatchObject({ requests: 5, errors: 0, unanswered: 0, notifications: 1, stderr_lines: 0, polluting_lines: 3 });
    const text = await runInProcess(['mcp', 'show', file]);
    // toolrun's own era probe, refused by a 2025 server as it should be, is not the server's error.
    expect(timeline.events[3]).toMatchObject({ kind: 'response', method: 'server/discover', era_probe: true });
    expect(text.stdout).toMatch(/^ +[\d.]+ ms {2}← #toolrun-discover-1 server\/discover refused -32601: toolrun's era probe, the server speaks the 2025 protocol \([\d.]+ ms\)$/m);
    expect(text.stdout).toMatch(/^ +[\d.]+ ms {2}✖ stdout not JSON-RPC \(not-json\): "noisy tool called"$/m);
    expect(text.stdout.split('\n').at(-1)).toMatch(/^5 requests · 1 notification · 0 stderr lines · 3 polluting stdout lines · slowest: /);
  });

  it('refuses what is not a recording, and a missing file (exit 2)', async () => {
    const config = writeTempConfig({ mcpServers: {} });
    const notRecording = await runInProcess(['mcp', 'show', config]);
    expect(notRecording).toMatchObject({ exitCode: 2, stdout: '' });
    expect(notRecording.stderr).toBe(`✖ ${config}: not a toolrun recording: its first line is not {"toolrun_recording": 1, …} (check-stdout --file reads raw captures)`);
    const missing = await runInProcess(['mcp', 'show', join(tempDir(), 'nope.rec')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^✖ recording not found: .*nope\.rec; check the path$/);
  });

  // Issue #19 item 17: the one reader checks every line's fields, for show, replay and check-stdout --file alike.
  const HEADER = '{"toolrun_recording":1,"server":"s","command":"c","started":"2024-01-01T00:00:00.000Z"}';
  it.each([
    ['{"t":1,"dir":"recv","b64":5}', 'line 3 of the recording: "b64" must be a base64 string, found 5'],
    ['{"t":1,"dir":"recv","b64":"not base64!"}', 'line 3 of the recording: "b64" must be a base64 string, found "not base64!"'],
    ['{"t":1,"dir":"recv","text":5}', 'line 3 of the recording: "text" must be a string, found 5'],
    ['{"t":"x","dir":"recv","text":"{}"}', 'line 3 of the recording: "t" must be a number of milliseconds, found "x"'],
    ['{"t":1,"dir":"up","text":"{}"}', 'line 3 of the recording: "dir" must be "send", "recv" or "stderr", found "up"'],
    ['{"t":1,"dir":"recv"}', 'line 3 of the recording: it needs "text" or "b64"'],
    ['{"t":1,"dir":"recv","text":"a","eol":"no"}', 'line 3 of the recording: "eol" must be false or absent, found "no"'],
    ['null', 'line 3 of the recording: it must be a JSON object, found null'],
    ['[]', 'line 3 of the recording: it must be a JSON object, found an array'],
  ])('%s: exit 2 naming the line, in show, replay and check-stdout --file', async (line, message) => {
    const file = join(tempDir(), 'bad.rec');
    writeFileSync(file, `${HEADER}\n{"t":0,"dir":"send","text":"{}"}\n${line}\n`);
    for (const args of [
      ['mcp', 'show', file],
      ['--json', 'mcp', 'show', file],
      ['mcp', 'check-stdout', '--file', file],
      ['mcp', 'replay', file, '--', process.execPath, '-e', '0'],
    ]) {
      const result = await runInProcess(args);
      expect({ args, exitCode: result.exitCode, stderr: result.stderr.trim() }).toEqual({ args, exitCode: 2, stderr: `✖ ${file}: ${message}` });
    }
  });

  it.each([
    ['{"toolrun_recording":1}', 'line 1 of the recording: the header needs "server", "command" and "started" strings'],
    ['{"toolrun_recording":2,"server":"s","command":"c","started":"x"}', 'line 1 of the recording: format version 2 is not one this toolrun reads (1); update toolrun'],
  ])('a header %s: exit 2 naming the problem', async (header, message) => {
    const file = join(tempDir(), 'bad.rec');
    writeFileSync(file, `${header}\n`);
    const result = await runInProcess(['mcp', 'show', file]);
    expect({ exitCode: result.exitCode, stderr: result.stderr.trim() }).toEqual({ exitCode: 2, stderr: `✖ ${file}: ${message}` });
  });
});
