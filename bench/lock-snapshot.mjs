// `toolrun lock` of 200 tools served from a snapshot (SPEC §24: ≤ 1 s): the snapshot is served by
// `toolrun mcp mock`, `toolrun lock` pins it, whole process, the median of N runs; every run must
// write the same bytes. Prints {"lock_ms", "tools", "identical"}.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 5);
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolrun-lock-bench-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
const snapshot = join(folder, 'api.json');
const tools = Array.from({ length: 200 }, (_, index) => ({
  name: `tool_${index}`,
  description: `Query resource ${index} of the workspace: returns matching records with their ids, titles and timestamps, newest first.`,
  annotations: { readOnlyHint: true },
  inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'free-text search terms' }, limit: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['query'] },
}));
writeFileSync(snapshot, JSON.stringify({ toolrunSnapshot: 1, server: { name: 'bench' }, tools, resources: [], resourceTemplates: [], prompts: [] }));
const config = join(folder, 'toolrun.config.json');
writeFileSync(config, JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [bin, 'mcp', 'mock', snapshot] } } }));
const env = { ...process.env, NO_COLOR: '1', CI: 'true', XDG_CACHE_HOME: join(folder, 'cache'), XDG_RUNTIME_DIR: join(folder, 'run') };

const times = [];
const outputs = new Set();
for (let i = 0; i < n; i++) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [bin, '--no-session', '--config', config, 'lock'], { cwd: folder, env, encoding: 'utf8' });
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
  if (run.status !== 0) throw new Error(`toolrun lock exited ${run.status}: ${run.stderr}`);
  outputs.add(readFileSync(join(folder, 'toolrun.lock'), 'utf8'));
}
times.sort((a, b) => a - b);
const pinned = JSON.parse([...outputs][0]).servers.big.tools.length;
process.stdout.write(`${JSON.stringify({ lock_ms: times[Math.floor(times.length / 2)], tools: pinned, identical: outputs.size === 1 })}\n`);
