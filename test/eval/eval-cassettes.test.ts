import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { weatherCases, weatherToolsFolder } from '../helpers/eval-weather.js';

// SPEC §26, issue 52: `toolrun eval --record` against an OpenAI-compatible model (the scripted
// server of fixtures/servers/), then `--replay` (the default under CI) with no network call: the
// same verdicts, run after run.

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model?.stop());

/** A folder with local mock tools and an eval file of the fixture script's scenarios. */
function project() {
  const dir = weatherToolsFolder();
  const cases = weatherCases();
  writeFileSync(join(dir, 'weather.eval.json'), JSON.stringify({ cases }));
  const run = (args: string[], env: Record<string, string> = {}) =>
    runInProcess(['--json', 'eval', 'weather.eval.json', '--model', 'compatible:scripted', '--base-url', `${model.url}/v1`, ...args], { cwd: dir, env });
  return { dir, run };
}

const verdicts = (stdout: string) => (JSON.parse(stdout) as { cases: { name: string; met: boolean; failures: string[] }[] }).cases.map(({ name, met, failures }) => ({ name, met, failures }));

describe('toolrun eval cassettes', () => {
  it('--record then --replay gives the same verdicts with no request to the model; under CI replay is the default; 100 replays agree', { timeout: 120_000 }, async () => {
    const { dir, run } = project();
    const recorded = await run(['--record']);
    expect(recorded.exitCode, recorded.stderr).toBe(1);
    const expected = verdicts(recorded.stdout);
    expect(expected.map(({ name, met }) => [name, met])).toEqual([
      ['right call', true],
      ['wrong tool', false],
    ]);
    expect(readdirSync(join(dir, '__cassettes__'))).toEqual(['weather.eval.json']);
    expect(readdirSync(join(dir, '__cassettes__', 'weather.eval.json')).sort()).toEqual(['right-call', 'wrong-tool']);
    const before = await model.requestCount();
    for (let replay = 0; replay < 100; replay++) {
      const replayed = await run(replay % 2 === 0 ? ['--replay'] : [], { CI: 'true' });
      expect(replayed.exitCode).toBe(1);
      expect(verdicts(replayed.stdout)).toEqual(expected);
    }
    expect(await model.requestCount()).toBe(before);
    // No secret is written: the key given through --api-key-env is in no cassette.
    const keyed = project();
    await keyed.run(['--record', '--api-key-env', 'EVAL_TEST_KEY'], { EVAL_TEST_KEY: 'sk-test-0123456789abcdefghij' });
    const cassettes = join(keyed.dir, '__cassettes__', 'weather.eval.json');
    for (const folder of readdirSync(cassettes))
      for (const file of readdirSync(join(cassettes, folder))) expect(readFileSync(join(cassettes, folder, file), 'utf8')).not.toContain('0123456789abcdefghij');
  });

  it('runs: N records each run apart (N answers per request) and replays each run from its own', { timeout: 60_000 }, async () => {
    const { dir, run } = project();
    const file = join(dir, 'weather.eval.json');
    const suite = JSON.parse(readFileSync(file, 'utf8')) as { cases: { runs?: number }[] };
    suite.cases = [{ ...suite.cases[0]!, runs: 3 }];
    writeFileSync(file, JSON.stringify(suite));
    expect((await run(['--record'])).exitCode).toBe(0);
    // Two model requests a run (the call, then the answer), three runs.
    expect(readdirSync(join(dir, '__cassettes__', 'weather.eval.json', 'right-call'))).toHaveLength(6);
    const before = await model.requestCount();
    const replayed = await run(['--replay']);
    expect(replayed.exitCode, replayed.stdout).toBe(0);
    expect((JSON.parse(replayed.stdout) as { cases: { passed: number; runs: number }[] }).cases[0]).toMatchObject({ passed: 3, runs: 3 });
    expect(await model.requestCount()).toBe(before);
  });

  it('a replay whose request no cassette has fails the case naming the first differing JSON path, and asks the model nothing', { timeout: 60_000 }, async () => {
    const { dir, run } = project();
    expect((await run(['--record'])).exitCode).toBe(1);
    const file = join(dir, 'weather.eval.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('What is the weather in Paris?', 'What is the weather in Paris today?'));
    const before = await model.requestCount();
    const missed = await run(['--replay']);
    expect(missed.exitCode).toBe(1);
    const right = (JSON.parse(missed.stdout) as { cases: { name: string; failures: string[] }[] }).cases.find((entry) => entry.name === 'right call')!;
    expect(right.failures.join('\n')).toContain('messages[0].content');
    expect(await model.requestCount()).toBe(before);
  });
});

describe('toolrun eval --record removes the cassettes it no longer uses', () => {
  it("a changed prompt's old cassettes and a removed case's folder go; another model's and a failed recording's stay", { timeout: 60_000 }, async () => {
    const { dir, run } = project();
    const cassettes = join(dir, '__cassettes__', 'weather.eval.json');
    const file = join(dir, 'weather.eval.json');
    expect((await run(['--record'])).exitCode).toBe(1);
    // Another model recorded beside it (a matrix of both): the other's are not this recording's to remove.
    expect((await run(['--record', '--model', 'compatible:other'])).exitCode).toBe(1);
    expect(readdirSync(join(cassettes, 'right-call'))).toHaveLength(4);
    const suite = JSON.parse(readFileSync(file, 'utf8')) as { cases: { name: string; prompt: string }[] };
    writeFileSync(file, JSON.stringify({ cases: [{ ...suite.cases[0]!, prompt: 'What is the weather in Paris today?' }] }));
    const rerecorded = await run(['--record']);
    expect(rerecorded.exitCode, rerecorded.stderr).toBe(0);
    // 2 old requests of "right call" and the 2 of the removed "wrong tool", compatible:scripted's only.
    expect(rerecorded.stderr).toContain(`removed 4 cassettes this recording no longer uses (${join('__cassettes__', 'weather.eval.json')})`);
    expect(readdirSync(join(cassettes, 'right-call'))).toHaveLength(4);
    expect(readdirSync(join(cassettes, 'wrong-tool'))).toHaveLength(2);
    expect((await run(['--replay'])).exitCode).toBe(0);
    expect((await run(['--replay', '--model', 'compatible:other'])).exitCode).toBe(1);
    // A recording whose model cannot be reached removes nothing.
    const before = readdirSync(join(cassettes, 'right-call')).sort();
    const stopped = await startScriptedModel();
    await stopped.stop();
    const down = await runInProcess(['--json', 'eval', 'weather.eval.json', '--record', '--model', 'compatible:scripted', '--base-url', stopped.baseUrl], { cwd: dir });
    expect(down.exitCode).toBe(4);
    expect(readdirSync(join(cassettes, 'right-call')).sort()).toEqual(before);
  });
});
