// toolrun's benchmarks: each one times toolrun and a baseline in the same run, interleaved, and
// prints the medians, the ratio and the target. `npm run bench -- --json` prints the same as JSON.
// Run after `npm run build` (npm run bench does both).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const asJson = process.argv.includes('--json');
const runs = Number(process.env.BENCH_RUNS ?? 15);
const warmups = 2;
const quietEnv = { ...process.env, NO_COLOR: '1', CI: 'true', TOOLRUN_CONFIG: '' };

/** Wall time of one whole process, in ms. */
function timeProcess(command, args) {
  const startedAt = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: root, env: quietEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Interleaves subject and baseline so that machine noise hits both alike. */
function compareProcesses({ name, subject, baseline, target }) {
  const subjectTimes = [];
  const baselineTimes = [];
  for (let i = 0; i < warmups + runs; i++) {
    const a = timeProcess(...subject);
    const b = timeProcess(...baseline);
    if (i >= warmups) {
      subjectTimes.push(a);
      baselineTimes.push(b);
    }
  }
  const toolrunMs = median(subjectTimes);
  const baselineMs = median(baselineTimes);
  const baselineName = baseline[1].map((part) => part.replace(/^.*\/(bench\/)/, '$1')).join(' ');
  return { name, toolrun_ms: round(toolrunMs), baseline_ms: round(baselineMs), ratio: round(toolrunMs / baselineMs, 2), target, ok: toolrunMs / baselineMs <= target, baseline: baselineName };
}

function round(value, digits = 1) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

const node = process.execPath;
const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const benchDir = mkdtempSync(join(tmpdir(), 'toolrun-bench-'));
const everythingConfig = join(benchDir, 'everything.json');
writeFileSync(everythingConfig, JSON.stringify({ mcpServers: { everything: { command: node, args: [everything, 'stdio'] } } }));
// Three servers configured, none of which a local tool may start (one would not even start).
const threeServersConfig = join(benchDir, 'three-servers.json');
writeFileSync(threeServersConfig, JSON.stringify({ mcpServers: { a: { command: node, args: [everything, 'stdio'] }, b: { command: node, args: [everything, 'stdio'] }, c: { command: 'not-installed-anywhere' } } }));
const nodeBaseline = [node, ['-e', '0']];
const benchmarks = [
  { name: 'toolrun exec get_current_datetime', subject: [node, [bin, 'exec', 'get_current_datetime']], baseline: nodeBaseline, target: 1.6 },
  { name: "toolrun exec math_eval expression='2+2'", subject: [node, [bin, 'exec', 'math_eval', 'expression=2+2']], baseline: nodeBaseline, target: 4 },
  { name: 'toolrun --help', subject: [node, [bin, '--help']], baseline: nodeBaseline, target: 1.6 },
  { name: 'toolrun exec get_current_datetime, 3 MCP servers configured', subject: [node, [bin, '--config', threeServersConfig, 'exec', 'get_current_datetime']], baseline: nodeBaseline, target: 1.6 },
  {
    name: 'toolrun exec echo message=hi --server everything',
    subject: [node, [bin, '--config', everythingConfig, 'exec', 'echo', 'message=hi', '--server', 'everything']],
    baseline: [node, [fileURLToPath(new URL('sdk-echo-client.mjs', import.meta.url))]],
    target: 1.15,
  },
];

const results = [];
for (const benchmark of benchmarks) {
  if (!asJson) process.stderr.write(`running: ${benchmark.name} (${runs} runs each, after ${warmups} warm-ups)\n`);
  results.push(compareProcesses(benchmark));
}

if (asJson) {
  process.stdout.write(`${JSON.stringify({ node: process.version, runs, results }, null, 2)}\n`);
} else {
  const header = ['benchmark', 'toolrun', 'baseline', 'ratio', 'target', ''];
  const rows = results.map((r) => [r.name, `${r.toolrun_ms} ms`, `${r.baseline_ms} ms (${r.baseline})`, `${r.ratio}×`, `≤ ${r.target}×`, r.ok ? 'ok' : 'OVER']);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  process.stdout.write(`${[line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
