// `toolrun serve`'s added latency (SPEC §20: < 1 ms at p50): N calls of server-everything's echo
// from the SDK's client, directly to the server and through `toolrun serve`, in the same process
// run, each after warm-up calls. Prints {"direct_p50_ms", "serve_p50_ms", "added_p50_ms"}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 500);
const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolrun-serve-bench-'));
// Removed however the run ends: each bench run used to leave one behind in /tmp.
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
const config = join(folder, 'config.json');
writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));

async function p50(args, tool) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  const call = () => client.callTool({ name: tool, arguments: { message: 'hi' } });
  for (let i = 0; i < 50; i++) await call();
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  await client.close();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const direct = await p50([everything, 'stdio'], 'echo');
const served = await p50([bin, '--config', config, 'serve', 'everything'], 'everything__echo');
process.stdout.write(`${JSON.stringify({ direct_p50_ms: direct, serve_p50_ms: served, added_p50_ms: served - direct })}\n`);
