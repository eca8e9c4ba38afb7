// Pushes MB megabytes of JSON-RPC lines through fixtures/servers/echo-bytes-server.js and reads them
// back: directly (`direct`) or through `toolrun mcp tap` (`tap`). The bench compares wall times.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [mode, megabytes = '200'] = process.argv.slice(2);
const echo = fileURLToPath(new URL('../fixtures/servers/echo-bytes-server.js', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const args = mode === 'tap' ? [bin, 'mcp', 'tap', '--', process.execPath, echo] : [echo];
const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(950) } })}\n`);
const total = Number(megabytes) * 1024 * 1024;
let received = 0;
child.stdout.on('data', (chunk) => (received += chunk.length));
const chunk = Buffer.concat(Array.from({ length: 64 }, () => line));
let sent = 0;
while (sent < total) {
  if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  sent += chunk.length;
}
child.stdin.end();
await new Promise((resolve) => child.once('close', resolve));
if (received !== sent) {
  process.stderr.write(`lost bytes: sent ${sent}, received ${received}\n`);
  process.exit(1);
}
