import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { BIN, FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { tempDir } from '../helpers/temp-config.js';

const server = (file: string) => join(FIXTURES, 'servers', file);

/** A scripted host: starts `toolrun mcp tap ARGS`, writes `input`, keeps or closes stdin, collects stdout bytes. */
function host(args: string[], options: { env?: Record<string, string> } = {}) {
  const marker = newProcessMarker();
  const child = execa(process.execPath, [BIN, ...(args[0] === '--config' ? args.splice(0, 2) : []), 'mcp', 'tap', ...args], {
    cwd: ROOT,
    reject: false,
    encoding: 'buffer',
    stripFinalNewline: false,
    env: { ...process.env, ...options.env, ...marker.env },
    stdin: 'pipe',
  });
  const done = child.then((result) => ({ exitCode: result.exitCode, stdout: Buffer.from(result.stdout as Uint8Array), stderr: Buffer.from(result.stderr as Uint8Array).toString() }));
  return { child, marker, done };
}

// SPEC §11: tap sits between a real host and a server, faithful both ways.
describe('toolrun mcp tap', () => {
  it('forwards bytes unchanged both ways (a non-UTF-8 line, a 5 MB message), records them, reports the polluting line, ends with the host', async () => {
    const record = join(tempDir(), 'tap.rec');
    const { child, marker, done } = host(['--record', record, '--', process.execPath, server('echo-bytes-server.js')]);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'x', params: { blob: 'y'.repeat(5 * 1024 * 1024) } });
    const input = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a]), Buffer.from(`${big}\n`)]);
    child.stdin!.end(input);
    const result = await done;
    expect(result.exitCode).toBe(0);
    expect(Buffer.compare(result.stdout, input)).toBe(0);
    expect(result.stderr).toContain('[tap echo-bytes-server] stdout line 2 is not clean JSON-RPC (invalid-utf8, not-json), forwarded: a strict host fails on it');
    const lines = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ toolrun_recording: 1, server: 'echo-bytes-server' });
    expect(lines.filter((line) => line.dir === 'send')).toHaveLength(3);
    expect(lines.filter((line) => line.dir === 'recv').map((line) => line.b64 ?? line.text.length)).toEqual([40, Buffer.from([0x43, 0x61, 0x66, 0xe9]).toString('base64'), big.length]);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('--guard drops what is not JSON-RPC (reported) and forwards the messages', async () => {
    const { child, marker, done } = host(['--guard', '--', process.execPath, server('polluting-server.js')]);
    child.stdin!.end('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}\n');
    const result = await done;
    expect(result.exitCode).toBe(0);
    const out = result.stdout.toString('utf8').split('\n').filter(Boolean);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'polluting-server' } } });
    expect(result.stderr).toContain('[tap polluting-server] stdout line 1 is not clean JSON-RPC (not-json), dropped (--guard): "Loading config..."');
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('ends a server that ignores stdin close and SIGTERM when the host leaves; Ctrl-C ends it too (exit 130)', async () => {
    const stubborn = host(['--', process.execPath, server('ignore-sigterm-server.js')]);
    await waitFor(() => stubborn.marker.alive().length >= 2);
    stubborn.child.stdin!.end();
    expect((await stubborn.done).exitCode).toBe(0);
    expect(await waitForNoProcesses(stubborn.marker.alive)).toEqual([]);
    const interrupted = host(['--', process.execPath, server('zwave-server.js')]);
    await waitFor(() => interrupted.marker.alive().length >= 2);
    interrupted.child.kill('SIGINT');
    expect((await interrupted.done).exitCode).toBe(130);
    expect(await waitForNoProcesses(interrupted.marker.alive)).toEqual([]);
  }, 20_000);

  it('ends what the server left running (a setsid helper) when the host leaves', async () => {
    const pidFile = join(tempDir(), 'helper.pid');
    const tapped = host(['--', process.execPath, server('setsid-helper-server.js')], { env: { HELPER_PID_FILE: pidFile } });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
    tapped.child.stdin!.end();
    expect((await tapped.done).exitCode).toBe(0);
    expect(await waitForNoProcesses(tapped.marker.alive)).toEqual([]);
  }, 20_000);

  it('taps a server of the config by name, recording under its name', async () => {
    const record = join(tempDir(), 'zwave.rec');
    const { child, done, marker } = host(['--config', join(FIXTURES, 'home.json'), 'zwave', '--record', record]);
    child.stdin!.end('{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}\n');
    const result = await done;
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.toString('utf8'))).toMatchObject({ id: 7, result: { serverInfo: { name: 'zwave-mcp-server' } } });
    // The server's stderr reaches the host's log (toolrun's stderr) as it was.
    expect(result.stderr).toContain('zwave-mcp-server: broker sim://local');
    expect(JSON.parse(readFileSync(record, 'utf8').split('\n')[0]!)).toMatchObject({ server: 'zwave', command: 'node ./servers/zwave-server.js' });
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('a command that cannot be started is exit 4 with one line', async () => {
    const { child, done } = host(['--', 'no-such-command-toolrun-tap']);
    child.stdin!.end();
    const result = await done;
    expect(result.exitCode).toBe(4);
    expect(result.stderr.trim()).toBe("✖ [tap no-such-command-toolrun-tap] command not found: 'no-such-command-toolrun-tap' (not on PATH, or the file does not exist)");
  });
});
