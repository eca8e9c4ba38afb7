// Baseline for `toolrun time echo -n 1000`: an SDK client calling echo 1000 times on one
// connection (after 2 warm-up calls), timing each call; prints {"p50": ms, "mean": ms}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const iterations = Number(process.argv[2] ?? 1000);
const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, 'stdio'], stderr: 'ignore' }));
for (let i = 0; i < 2; i++) await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
const durations = [];
for (let i = 0; i < iterations; i++) {
  const before = process.hrtime.bigint();
  await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
  durations.push(Number(process.hrtime.bigint() - before) / 1e6);
}
await client.close();
durations.sort((a, b) => a - b);
const p50 = (durations[Math.floor((iterations - 1) / 2)] + durations[Math.ceil((iterations - 1) / 2)]) / 2;
console.log(JSON.stringify({ p50, mean: durations.reduce((sum, ms) => sum + ms, 0) / iterations }));
