// toolrun's benchmarks, all in one run: each times toolrun and its baseline in the same run,
// interleaved, and prints the medians, the ratio and the target. `npm run bench -- --json` prints
// the same as JSON. `npm run bench -- --only scan` runs the benchmarks whose name contains "scan".
// Run after a build (npm run bench does both). Exit 1 when a target is missed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCapture } from './make-capture.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const asJson = process.argv.includes('--json');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const node = process.execPath;
const quietEnv = { ...process.env, NO_COLOR: '1', CI: 'true', TOOLRUN_CONFIG: '' };
const log = (message) => asJson || process.stderr.write(`${message}\n`);

/** Runs a whole process; resolves to its wall time and peak RSS (VmHWM, polled from /proc). */
function runProcess([command, args], { okCodes = [0] } = {}) {
  return new Promise((resolve, reject) => {
    const startedAt = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: root, env: quietEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peakKb = 0;
    const readPeak = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {
        // The process is gone, or /proc does not exist here.
      }
    };
    const poller = setInterval(readPeak, 5);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poller);
      const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
      if (!okCodes.includes(code)) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      else resolve({ ms, peakMb: peakKb / 1024 });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Times subject and baseline alternately. `kind: 'time'` compares wall times (ratio = toolrun /
 * baseline, target a maximum); `kind: 'throughput'` compares speeds (ratio = baseline / toolrun,
 * target a minimum).
 */
async function compare({ name, subject, baseline, target, kind = 'time', runs = 15, warmups = 2, okCodes, maxPeakMb }) {
  const a = [];
  const b = [];
  let peak = 0;
  for (let i = 0; i < warmups + runs; i++) {
    const s = await runProcess(subject, { okCodes });
    const t = await runProcess(baseline);
    if (i >= warmups) {
      a.push(s.ms);
      b.push(t.ms);
      peak = Math.max(peak, s.peakMb);
    }
  }
  const toolrunMs = median(a);
  const baselineMs = median(b);
  const ratio = kind === 'time' ? toolrunMs / baselineMs : baselineMs / toolrunMs;
  const ok = (kind === 'time' ? ratio <= target : ratio >= target) && (maxPeakMb === undefined || peak <= maxPeakMb);
  return {
    name,
    toolrun_ms: round(toolrunMs),
    baseline_ms: round(baselineMs),
    baseline: describe(baseline),
    ratio: round(ratio, 2),
    target: `${kind === 'time' ? '≤' : '≥'} ${target}×`,
    ...(maxPeakMb !== undefined ? { peak_mb: round(peak), peak_target: `< ${maxPeakMb} MB` } : {}),
    ok,
  };
}

function describe([command, args]) {
  const shown = [command === node ? 'node' : command, ...args.map((part) => part.replace(benchDir, '<tmp>').replace(root, '').replace(/^.*\/(bench\/)/, '$1'))];
  return shown.join(' ');
}

const benchDir = mkdtempSync(join(tmpdir(), 'toolrun-bench-'));
const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const everythingConfig = join(benchDir, 'everything.json');
writeFileSync(everythingConfig, JSON.stringify({ mcpServers: { everything: { command: node, args: [everything, 'stdio'] } } }));
// Three servers configured; a local tool must start none of them (one would not even start).
const threeServersConfig = join(benchDir, 'three-servers.json');
writeFileSync(threeServersConfig, JSON.stringify({ mcpServers: { a: { command: node, args: [everything, 'stdio'] }, b: { command: node, args: [everything, 'stdio'] }, c: { command: 'not-installed-anywhere' } } }));
const capture = join(benchDir, 'capture-200mb.ndjson');
const nodeBaseline = [node, ['-e', '0']];

const benchmarks = [
  { name: 'exec get_current_datetime (startup)', subject: [node, [bin, 'exec', 'get_current_datetime']], baseline: nodeBaseline, target: 1.6 },
  { name: "exec math_eval expression='2+2'", subject: [node, [bin, 'exec', 'math_eval', 'expression=2+2']], baseline: nodeBaseline, target: 4 },
  { name: '--help', subject: [node, [bin, '--help']], baseline: nodeBaseline, target: 1.6 },
  { name: 'exec get_current_datetime, 3 MCP servers configured', subject: [node, [bin, '--config', threeServersConfig, 'exec', 'get_current_datetime']], baseline: nodeBaseline, target: 1.6 },
  {
    name: 'exec echo message=hi --server everything',
    subject: [node, [bin, '--config', everythingConfig, 'exec', 'echo', 'message=hi', '--server', 'everything']],
    baseline: [node, [fileURLToPath(new URL('sdk-echo-client.mjs', import.meta.url))]],
    target: 1.15,
    runs: 11,
  },
  {
    name: 'mcp doctor everything (wall time)',
    subject: [node, [bin, '--config', everythingConfig, 'mcp', 'doctor', 'everything']],
    baseline: [node, [fileURLToPath(new URL('sdk-list-client.mjs', import.meta.url))]],
    target: 1.5,
    runs: 11,
    okCodes: [0],
  },
  {
    name: 'mcp check-stdout --file (200 MB scan throughput)',
    subject: [node, [bin, 'mcp', 'check-stdout', '--file', capture]],
    baseline: [node, [fileURLToPath(new URL('readline-baseline.mjs', import.meta.url)), capture]],
    kind: 'throughput',
    target: 0.7,
    runs: 5,
    warmups: 1,
    okCodes: [1],
    maxPeakMb: 150,
    setup: async () => {
      log('writing a 200 MB capture');
      await makeCapture(capture, 200);
    },
  },
].filter((benchmark) => !only || benchmark.name.includes(only));

const results = [];
try {
  for (const benchmark of benchmarks) {
    await benchmark.setup?.();
    log(`running: ${benchmark.name}`);
    results.push(await compare(benchmark));
  }
} finally {
  rmSync(benchDir, { recursive: true, force: true });
}

if (asJson) process.stdout.write(`${JSON.stringify({ node: process.version, results }, null, 2)}\n`);
else {
  const header = ['benchmark', 'toolrun', 'baseline', 'ratio', 'target', 'peak', ''];
  const rows = results.map((r) => [r.name, `${r.toolrun_ms} ms`, `${r.baseline_ms} ms  ${r.baseline}`, `${r.ratio}×`, r.target, r.peak_mb !== undefined ? `${r.peak_mb} MB (${r.peak_target})` : '', r.ok ? 'ok' : 'MISSED']);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  process.stdout.write(`${[line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
