// The lock's added latency inside the host (SPEC §24: ≤ 0.1 ms p50 per message): N round trips of a
// tools/call line through fixtures/servers/echo-bytes-server.js, via `toolrun mcp tap` and via
// `toolrun mcp tap --lock`, in the same run. The tool was listed first (a tools/list, then its
// answer, which the echo server sends back), so --lock's gate passes the call: every call is read
// (it names tools/) and every echoed line is checked against the list ids. Prints
// {"tap_p50_ms", "locked_p50_ms", "added_p50_ms"}.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 1000);
const echo = fileURLToPath(new URL('../fixtures/servers/echo-bytes-server.js', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolrun-tap-lock-bench-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));

// The lock, written by toolrun from a mock serving the one tool the calls name.
const tool = { name: 'lookup', description: 'Look a record up by id', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } };
writeFileSync(join(folder, 'api.json'), JSON.stringify({ toolrunSnapshot: 1, server: { name: 'echo' }, tools: [tool], resources: [], resourceTemplates: [], prompts: [] }));
writeFileSync(join(folder, 'toolrun.config.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [bin, 'mcp', 'mock', join(folder, 'api.json')] } } }));
const env = { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(folder, 'cache'), XDG_RUNTIME_DIR: join(folder, 'run') };
const locked = spawnSync(process.execPath, [bin, '--no-session', 'lock'], { cwd: folder, env, encoding: 'utf8' });
if (locked.status !== 0) throw new Error(`toolrun lock failed: ${locked.stderr}`);

const lines = (...messages) => messages.map((message) => Buffer.from(`${JSON.stringify(message)}\n`));
const prelude = lines({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools: [tool] } });
const [call] = lines({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup', arguments: { id: 'a-123' } } });

async function p50(args) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd: folder, env });
  let waiting;
  let buffered = 0;
  let last = '';
  child.stdout.on('data', (chunk) => {
    last = chunk.toString();
    for (const byte of chunk) if (byte === 10) buffered++;
    if (buffered > 0) {
      buffered--;
      waiting?.();
    }
  });
  const roundTrip = (line) =>
    new Promise((resolve) => {
      waiting = resolve;
      child.stdin.write(line);
    });
  for (const line of prelude) await roundTrip(line);
  for (let i = 0; i < 50; i++) await roundTrip(call);
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await roundTrip(call);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  // The calls went through to the server and back (a refusal would be the tap's own, faster answer).
  if (!last.includes('"method":"tools/call"')) throw new Error(`the call did not reach the server: ${last}`);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const tap = ['mcp', 'tap', '--name', 'echo'];
const plain = await p50([bin, ...tap, '--', process.execPath, echo]);
const withLock = await p50([bin, ...tap, '--lock', join(folder, 'toolrun.lock'), '--', process.execPath, echo]);
process.stdout.write(`${JSON.stringify({ tap_p50_ms: plain, locked_p50_ms: withLock, added_p50_ms: withLock - plain })}\n`);
