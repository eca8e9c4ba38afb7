import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { weatherCases, weatherToolsFolder } from '../helpers/eval-weather.js';

// Issue 52 item 2: the openai:, anthropic: and google: providers, each against the scripted model
// speaking that provider's own API (OpenAI Responses, Anthropic Messages, Gemini generateContent), as
// the AI SDK sends them: the tools and the tool results reach the model in the provider's shape, a
// recording replays with no request and without the key, the key is in no cassette, and a changed
// prompt fails naming the place in that provider's request.

/** A request body as the scripted model received it. */
type Body = Record<string, unknown>;

const KEY = 'sk-provider-test-7c1e9d2b5a4f3e6d8c0b1a29384756ab';

const PROVIDERS = [
  {
    model: 'openai:gpt-4.1-mini',
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'OPENAI_BASE_URL',
    path: '/v1/responses',
    sentKey: (headers: Record<string, unknown>) => headers.authorization,
    expectedKey: `Bearer ${KEY}`,
    toolNames: (body: Body) => (body.tools as Array<{ type: string; name: string }>).map((tool) => `${tool.type}:${tool.name}`),
    toolResult: (body: Body) => JSON.stringify((body.input as Array<{ type: string }>).find((item) => item.type === 'function_call_output')),
    promptPath: 'input[0].content[0].text',
  },
  {
    model: 'anthropic:claude-sonnet-4-5',
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    path: '/v1/messages',
    sentKey: (headers: Record<string, unknown>) => headers['x-api-key'],
    expectedKey: KEY,
    toolNames: (body: Body) => (body.tools as Array<{ name: string; input_schema: { type: string } }>).map((tool) => `${tool.input_schema.type}:${tool.name}`),
    toolResult: (body: Body) => JSON.stringify((body.messages as Array<{ content: Array<{ type: string }> }>).at(-1)!.content.find((part) => part.type === 'tool_result')),
    promptPath: 'messages[0].content[0].text',
  },
  {
    model: 'google:gemini-2.5-flash',
    keyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    baseUrlVariable: 'GOOGLE_GENERATIVE_AI_BASE_URL',
    path: '/v1/models/gemini-2.5-flash:generateContent',
    sentKey: (headers: Record<string, unknown>) => headers['x-goog-api-key'],
    expectedKey: KEY,
    toolNames: (body: Body) => (body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>)[0]!.functionDeclarations.map((declaration) => `function:${declaration.name}`),
    toolResult: (body: Body) => JSON.stringify((body.contents as Array<{ parts: Array<{ functionResponse?: unknown }> }>).at(-1)!.parts[0]!.functionResponse),
    promptPath: 'contents[0].parts[0].text',
  },
] as const;

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model?.stop());

/** A folder with two mock tools and the fixture script's "right call" and "wrong tool" cases. */
function project(provider: (typeof PROVIDERS)[number]) {
  const dir = weatherToolsFolder();
  const write = (paris: string) => writeFileSync(join(dir, 'weather.eval.json'), JSON.stringify({ cases: weatherCases(paris) }));
  write('What is the weather in Paris?');
  // The provider's own base-URL variable points it at the scripted model (--base-url is for compatible: models).
  const run = (args: string[], env: Record<string, string | undefined>) =>
    runInProcess(['--json', 'eval', 'weather.eval.json', '--model', provider.model, ...args], { cwd: dir, env: { [provider.baseUrlVariable]: model.baseUrl, ...env } });
  return { dir, run, write };
}

const verdicts = (stdout: string) => (JSON.parse(stdout) as { cases: { name: string; met: boolean; failures: string[] }[] }).cases.map(({ name, met, failures }) => ({ name, met, failures }));

function cassetteTexts(dir: string): string[] {
  const folder = join(dir, '__cassettes__', 'weather.eval.json');
  return readdirSync(folder).flatMap((caseFolder) => readdirSync(join(folder, caseFolder)).map((name) => readFileSync(join(folder, caseFolder, name), 'utf8')));
}

describe.each(PROVIDERS)('toolrun eval --model $model', (provider) => {
  it("records against the provider's own API, then replays the same verdicts with no request and no key", async () => {
    const { dir, run, write } = project(provider);
    // The fixture's default script: Paris gets get_weather then "It is sunny", Rome gets get_forecast.
    model.script(JSON.parse(readFileSync(join(ROOT, 'fixtures/eval/model-script.json'), 'utf8')).scenarios);
    const before = model.requests.length;
    const recorded = await run(['--record'], { [provider.keyVariable]: KEY, CI: undefined });
    expect(recorded.exitCode, recorded.stderr).toBe(1);
    const expected = verdicts(recorded.stdout);
    expect(expected).toEqual([
      { name: 'right call', met: true, failures: [] },
      { name: 'wrong tool', met: false, failures: ['called get_forecast, which the case forbids', 'expected a call to get_weather; the model called get_forecast'] },
    ]);

    // What the provider sent: its path, its key header, the tools and the tool's result in its own shape.
    const sent = model.requests.slice(before);
    expect(sent).toHaveLength(4);
    expect(sent.map((request) => request.path)).toEqual(Array(4).fill(provider.path));
    expect(sent.map((request) => provider.sentKey(request.headers))).toEqual(Array(4).fill(provider.expectedKey));
    expect(provider.toolNames(sent[0]!.body)).toEqual(expect.arrayContaining([expect.stringMatching(/:get_weather$/), expect.stringMatching(/:get_forecast$/)]));
    // The cases run side by side (--jobs), so the requests interleave: some second request carries the result.
    expect(sent.map((request) => provider.toolResult(request.body) ?? '').join('\n')).toContain('sunny');

    // One cassette per request; the key in none of them, nor in what was printed.
    const texts = cassetteTexts(dir);
    expect(texts).toHaveLength(4);
    for (const text of [...texts, recorded.stdout, recorded.stderr]) expect(text).not.toContain(KEY.slice(3));

    // Replay: no key in the environment, no request, the same verdicts.
    const replayed = await run(['--replay'], { [provider.keyVariable]: undefined });
    expect(replayed.exitCode, replayed.stderr).toBe(1);
    expect(verdicts(replayed.stdout)).toEqual(expected);
    expect(model.requests.length).toBe(before + 4);
    // The cassettes key the path after the base URL: replayed against the provider's own API (the
    // variable set empty, as CI templates do: its default), they answer all the same.
    const elsewhere = await run(['--replay'], { [provider.keyVariable]: undefined, [provider.baseUrlVariable]: '' });
    expect(verdicts(elsewhere.stdout)).toEqual(expected);
    expect(model.requests.length).toBe(before + 4);

    // A changed prompt is a miss that names where this provider's request carries it.
    write('What is the weather in Paris today?');
    const changed = await run(['--replay'], { [provider.keyVariable]: undefined });
    expect(changed.exitCode).toBe(1);
    expect(verdicts(changed.stdout)[0]!.failures[0]).toContain(provider.promptPath);
    expect(model.requests.length).toBe(before + 4);
  });
});

describe('toolrun eval --base-url', () => {
  it('is for compatible: models: alone with a hosted model it is exit 2 naming the variables; a matrix sends each model to its own endpoint', async () => {
    const { dir } = project(PROVIDERS[1]);
    const alone = await runInProcess(['eval', 'weather.eval.json', '--model', 'anthropic:claude-sonnet-4-5', '--base-url', model.baseUrl], { cwd: dir, env: { ANTHROPIC_API_KEY: KEY } });
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain(
      "✖ --base-url is the endpoint of compatible: models, and no --model is one; a hosted provider's endpoint is moved with OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GENERATIVE_AI_BASE_URL in the environment",
    );
    const notUrl = await runInProcess(['eval', 'weather.eval.json', '--model', 'compatible:x', '--base-url', 'localhost:11434'], { cwd: dir });
    expect(notUrl.exitCode).toBe(2);
    expect(notUrl.stderr).toContain("✖ --base-url is not an http(s) URL: 'localhost:11434' (e.g. http://localhost:11434/v1)");
    model.script(JSON.parse(readFileSync(join(ROOT, 'fixtures/eval/model-script.json'), 'utf8')).scenarios);
    const before = model.requests.length;
    const matrix = await runInProcess(['--json', 'eval', 'weather.eval.json', '--live', '--model', 'anthropic:claude-sonnet-4-5', '--model', 'compatible:local', '--base-url', model.baseUrl], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: `${model.url}/anthropic/v1` },
    });
    expect(matrix.exitCode, matrix.stderr).toBe(1);
    expect([...new Set(model.requests.slice(before).map((request) => request.path))].sort()).toEqual(['/anthropic/v1/messages', '/v1/chat/completions']);
  });
});
