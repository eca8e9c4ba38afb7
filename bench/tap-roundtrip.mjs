// tap's added latency (SPEC §11: "well under a millisecond"): N round trips of a small JSON-RPC
// line through fixtures/servers/echo-bytes-server.js, directly and through `toolrun mcp tap`, in
// the same process run. Prints {"direct_p50_ms", "tap_p50_ms", "added_p50_ms"}.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 1000);
const echo = fileURLToPath(new URL('../fixtures/servers/echo-bytes-server.js', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const line = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');

async function p50(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let waiting;
  child.stdout.on('data', (chunk) => {
    if (chunk.includes(10)) waiting?.();
  });
  const roundTrip = () =>
    new Promise((resolve) => {
      waiting = resolve;
      child.stdin.write(line);
    });
  for (let i = 0; i < 50; i++) await roundTrip();
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await roundTrip();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const direct = await p50(process.execPath, [echo]);
const tapped = await p50(process.execPath, [bin, 'mcp', 'tap', '--', process.execPath, echo]);
process.stdout.write(`${JSON.stringify({ direct_p50_ms: direct, tap_p50_ms: tapped, added_p50_ms: tapped - direct })}\n`);
