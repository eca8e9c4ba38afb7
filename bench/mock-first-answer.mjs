// `toolrun mcp mock`'s time to first answer (SPEC §20: ≤ 150 ms from spawn): spawn the mock of a
// snapshot, send initialize at once, time until its answer arrives; the median of N spawns, and
// the same for a bare `node` that answers the first line it reads (the floor any Node server has).
// Prints {"mock_ms", "node_ms"}.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 15);
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolrun-mock-bench-'));
// Removed however the run ends: each bench run used to leave one behind in /tmp.
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
const snapshot = join(folder, 'api.json');
const tools = Array.from({ length: 20 }, (_, index) => ({ name: `tool_${index}`, description: 'A tool.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }));
writeFileSync(snapshot, JSON.stringify({ toolrunSnapshot: 1, server: { name: 'bench' }, tools, resources: [], resourceTemplates: [], prompts: [] }));
const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;

async function firstAnswer(args) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdin.write(initialize);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const mock = await firstAnswer([bin, 'mcp', 'mock', snapshot]);
const node = await firstAnswer(['-e', "process.stdin.once('data', () => process.stdout.write('{}\\n'))"]);
process.stdout.write(`${JSON.stringify({ mock_ms: mock, node_ms: node })}\n`);
