// toolrun eval from cassettes (SPEC §26: a 50-case suite replays in ≤ 10 s with 0 network calls): 50
// cases are recorded once against fixtures/servers/scripted-model-server.js, the server is stopped,
// then `toolrun eval --replay` runs the suite, whole process, median of N runs; every case must pass
// (a request that reached for the stopped model would fail it). Prints {"replay_ms", "cases", "passed"}.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 5);
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const serverFile = fileURLToPath(new URL('../fixtures/servers/scripted-model-server.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolrun-eval-bench-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));

writeFileSync(
  join(folder, 'toolrun.config.json'),
  JSON.stringify({
    tools: [
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        implementation: { type: 'mock', mock_response: { sky: 'sunny' } },
      },
    ],
  }),
);
// The fixture's "right call" scenario answers any prompt with "weather in Paris" in it.
const cases = Array.from({ length: 50 }, (_, index) => ({
  name: `case ${index}`,
  prompt: `What is the weather in Paris? (question ${index})`,
  expect: { calls: [{ tool: 'get_weather', args: { city: 'Paris' } }], maxTurns: 3, answer: 'sunny' },
}));
writeFileSync(join(folder, 'suite.eval.json'), JSON.stringify({ cases }));
const env = { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(folder, 'cache'), XDG_RUNTIME_DIR: join(folder, 'run') };
delete env.CI;

const server = spawn(process.execPath, [serverFile], { stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolve) => server.stdout.once('data', (chunk) => resolve(chunk.toString().split('\n')[0])));
const eval_ = (mode) =>
  spawnSync(process.execPath, [bin, '--no-session', '--json', 'eval', 'suite.eval.json', mode, '--model', 'compatible:scripted', '--base-url', `${url}/v1`], { cwd: folder, env, encoding: 'utf8' });
const recorded = eval_('--record');
server.kill('SIGKILL');
if (recorded.status !== 0) throw new Error(`recording failed (${recorded.status}): ${recorded.stderr}`);

const times = [];
let passed = 0;
for (let i = 0; i < n; i++) {
  const started = process.hrtime.bigint();
  const replayed = eval_('--replay');
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
  passed = JSON.parse(replayed.stdout).cases.filter((entry) => entry.met).length;
}
times.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ replay_ms: times[Math.floor(times.length / 2)], cases: cases.length, passed })}\n`);
