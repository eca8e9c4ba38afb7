import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { BIN, FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { tempDir } from '../helpers/temp-config.js';

const SERVER = join(FIXTURES, 'servers', 'carry-ask-server.js');
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'host', version: '1' } } };

/**
 * A scripted host behind `mcp tap --record`: initialize, call ask-name, answer the server's
 * elicitation as a person would (its own id: the server's), then leave.
 */
async function recordElicitationRound(record: string) {
  const marker = newProcessMarker();
  const child = execa(process.execPath, [BIN, 'mcp', 'tap', '--record', record, '--', process.execPath, SERVER], { cwd: ROOT, reject: false, env: { ...process.env, ...marker.env }, stdin: 'pipe' });
  const write = (message: Record<string, unknown>) => child.stdin!.write(`${JSON.stringify(message)}\n`);
  write(INITIALIZE);
  const seen: Array<Record<string, unknown>> = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    const message = JSON.parse(line) as Record<string, unknown>;
    seen.push(message);
    if (message.id === 1) {
      write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      write({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask-name', arguments: {} } });
    } else if (message.method === 'elicitation/create') write({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { name: 'Ada', color: 'red' } } });
    else if (message.id === 2) child.stdin!.end();
  }
  expect((await child).exitCode).toBe(0);
  expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  return seen;
}

// Issue #22 item 5 / SPEC §15: a recorded elicitation round is shown, and answered the same way on replay.
describe('servers that ask back, in recordings and replay', () => {
  it('tap records the round; show pairs the server request with the client answer; replay answers it as recorded', async () => {
    const record = join(tempDir(), 'ask.rec');
    const seen = await recordElicitationRound(record);
    expect(seen.at(-1)).toMatchObject({ id: 2, result: { content: [{ text: 'elicitation: {"action":"accept","content":{"name":"Ada","color":"red"}}' }] } });

    const show = await runCleanInProcess(['--json', 'mcp', 'show', record]);
    const events = JSON.parse(show.stdout).events as Array<Record<string, unknown>>;
    expect(events.filter((event) => event.kind !== 'stderr').map(({ kind, from, id, method }) => ({ kind, from, id, method }))).toEqual([
      { kind: 'request', from: 'client', id: 1, method: 'initialize' },
      { kind: 'response', from: 'server', id: 1, method: 'initialize' },
      { kind: 'notification', from: 'client', id: undefined, method: 'notifications/initialized' },
      { kind: 'request', from: 'client', id: 2, method: 'tools/call' },
      { kind: 'request', from: 'server', id: 's1', method: 'elicitation/create' },
      { kind: 'response', from: 'client', id: 's1', method: 'elicitation/create' },
      { kind: 'response', from: 'server', id: 2, method: 'tools/call' },
    ]);
    expect(JSON.parse(show.stdout).summary).toMatchObject({ requests: 3, unanswered: 0 });

    const replayed = await runCleanInProcess(['mcp', 'replay', record, '--', process.execPath, SERVER]);
    expect(replayed).toMatchObject({
      exitCode: 0,
      stdout: ['✔ initialize #1', '✔ elicitation/create (asked by the server): answered as recorded', '✔ tools/call #2', 'same: 2 responses as recorded'].join('\n'),
    });
  });

  it('a server request the recording has no answer for is a difference (exit 1), not a hang; a recorded one never asked is too', async () => {
    const record = join(tempDir(), 'ask.rec');
    await recordElicitationRound(record);
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    // The recording without the client's answer: the replayed server's question has none.
    const withoutAnswer = join(tempDir(), 'no-answer.rec');
    writeFileSync(withoutAnswer, `${lines.filter((line) => !line.includes('"action')).join('\n')}\n`);
    const unanswered = await runCleanInProcess(['--json', 'mcp', 'replay', withoutAnswer, '--', process.execPath, SERVER]);
    expect(unanswered.exitCode).toBe(1);
    const report = JSON.parse(unanswered.stdout);
    expect(report.requests).toContainEqual({
      method: 'elicitation/create',
      id: 's1',
      same: false,
      differences: [],
      server_request: 'the server asked elicitation/create (its 1st), which the recording has no answer to; it got an error reply',
    });
    const text = await runCleanInProcess(['mcp', 'replay', withoutAnswer, '--', process.execPath, SERVER]);
    expect(text.stdout).toContain('✖ elicitation/create (asked by the server): the server asked elicitation/create (its 1st), which the recording has no answer to; it got an error reply');

    // A recording whose call the server now answers without asking: the recorded answer was never asked for.
    const notAsked = join(tempDir(), 'not-asked.rec');
    writeFileSync(notAsked, `${lines.map((line) => line.replace('ask-name', 'caps')).join('\n')}\n`);
    const skipped = await runCleanInProcess(['mcp', 'replay', notAsked, '--', process.execPath, SERVER]);
    expect(skipped.exitCode).toBe(1);
    expect(skipped.stdout).toContain('✖ elicitation/create (asked by the server): the recording answered 1 elicitation/create request, the server asked 0');
  });
});

describe('check-stdout --save records a round answered by its flags', () => {
  it('--elicit accept --answer answers during --call; the recording replays the same', async () => {
    const config = join(tempDir(), 'toolrun.config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { ask: { command: process.execPath, args: [SERVER] } } }));
    const record = join(tempDir(), 'ask.rec');
    const saved = await runCleanInProcess(['--config', config, '--elicit', 'accept', '--answer', 'name=Ada', 'mcp', 'check-stdout', 'ask', '--call', 'ask-name', '--save', record]);
    expect(saved.exitCode).toBe(0);
    const sent = readFileSync(record, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"dir":"send"') && line.includes('action'));
    expect(sent).toHaveLength(1);
    expect(JSON.parse(JSON.parse(sent[0]!).text)).toMatchObject({ result: { action: 'accept', content: { name: 'Ada', color: 'blue' } } });
    const replayed = await runCleanInProcess(['--config', config, 'mcp', 'replay', record, 'ask']);
    expect(replayed.exitCode).toBe(0);
    expect(replayed.stdout).toContain('✔ elicitation/create (asked by the server): answered as recorded');
  });
});
