import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cassetteFetch, CassetteMissError } from '../../src/eval/cassette/cassette-fetch.js';
import type { ModelFetch, ModelFetchOptions } from '../../src/eval/model-fetch.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { tempDir } from '../helpers/temp-config.js';

// A fake key of OpenAI's shape: it goes out in the Authorization header and must reach no cassette.
const FAKE_KEY = 'sk-proj-FAKEfakeFAKEfake0123456789';

const weatherTools = {
  get_weather: tool({
    description: 'The current weather in a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async ({ city }) => ({ city, sky: 'sunny' }),
  }),
  get_forecast: tool({
    description: 'The forecast for the next days',
    inputSchema: jsonSchema<{ city: string; days: number }>({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } }, required: ['city'] }),
  }),
};

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(async () => {
  await server.stop();
});

function modelWith(fetch: ModelFetch, baseURL = `${server.url}/v1`) {
  return createOpenAICompatible({ baseURL, name: 'scripted', apiKey: FAKE_KEY, fetch }).chatModel('scripted-1');
}

/** What a run's verdict reads: the final text and every step's tool calls. */
async function runCase(options: ModelFetchOptions, prompt: string, live?: ModelFetch) {
  const result = await generateText({ model: modelWith(cassetteFetch(options, live)), prompt, tools: weatherTools, stopWhen: stepCountIs(3), maxRetries: 0 });
  return { text: result.text, calls: result.steps.flatMap((step) => step.toolCalls.map((call) => ({ tool: call.toolName, input: call.input }))) };
}

function cassetteTexts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

describe('cassettes with the AI SDK against the scripted model server', () => {
  it('records a two-step case, then replays it with the same text and calls and no request to the server', async () => {
    const folder = tempDir();
    const before = await server.requestCount();
    const recorded = await runCase({ mode: 'record', folder, caseName: 'Paris weather' }, 'What is the weather in Paris?');
    expect(recorded).toEqual({ text: 'It is sunny in Paris.', calls: [{ tool: 'get_weather', input: { city: 'Paris' } }] });
    expect((await server.requestCount()) - before).toBe(2);
    expect(readdirSync(join(folder, 'paris-weather')).filter((name) => /^[0-9a-f]{64}\.json$/.test(name))).toHaveLength(2);

    const live = vi.fn<ModelFetch>(() => Promise.reject(new Error('replay called the network')));
    const afterRecording = await server.requestCount();
    const replayed = await runCase({ mode: 'replay', folder, caseName: 'Paris weather' }, 'What is the weather in Paris?', live);
    expect(replayed).toEqual(recorded);
    expect(live).not.toHaveBeenCalled();
    expect(await server.requestCount()).toBe(afterRecording);
  });

  it('replays a streamed answer as a stream, against another base URL', async () => {
    const folder = tempDir();
    const options = { folder, caseName: 'stream' };
    const stream = async (fetch: ModelFetch, baseURL?: string) => {
      const result = streamText({ model: modelWith(fetch, baseURL), prompt: 'What is the weather in Rome?', tools: weatherTools, maxRetries: 0 });
      return { text: await result.text, calls: (await result.toolCalls).map((call) => ({ tool: call.toolName, input: call.input })) };
    };
    const recorded = await stream(cassetteFetch({ ...options, mode: 'record' }));
    expect(recorded).toEqual({ text: '', calls: [{ tool: 'get_forecast', input: { city: 'Rome', days: 3 } }] });
    const [file] = readdirSync(join(folder, 'stream'));
    const cassette = JSON.parse(readFileSync(join(folder, 'stream', file!), 'utf8'));
    expect(cassette.response.headers).toEqual({ 'content-type': 'text/event-stream' });
    expect(cassette.response.body).toMatch(/^data: \{.*\n\ndata: \[DONE\]\n\n$/s);
    expect(cassette.request.path).toBe('/v1/chat/completions');
    expect(cassette.request.body.stream).toBe(true);

    const live = vi.fn<ModelFetch>();
    const before = await server.requestCount();
    expect(await stream(cassetteFetch({ ...options, mode: 'replay' }, live), 'http://127.0.0.1:9/v1')).toEqual(recorded);
    expect(live).not.toHaveBeenCalled();
    expect(await server.requestCount()).toBe(before);
  });

  it('fails a changed prompt on replay, naming the case, the differing path and --record', async () => {
    const folder = tempDir();
    await runCase({ mode: 'record', folder, caseName: 'Paris weather' }, 'What is the weather in Paris?');
    const live = vi.fn<ModelFetch>();
    const replay = runCase({ mode: 'replay', folder, caseName: 'Paris weather' }, 'What is the weather in Paris today?', live);
    const error = await replay.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const miss = findMiss(error);
    expect(miss.message).toBe(
      'eval case "Paris weather": no cassette matches this model request; the closest recorded one differs at messages[0].content: "What is the weather in Paris today?" (now) ≠ "What is the weather in Paris?" (recorded); run toolrun eval --record to record the model again',
    );
    expect(miss.difference?.path).toBe('messages[0].content');
    expect(live).not.toHaveBeenCalled();
  });

  it('gives identical results over 100 replays', async () => {
    const folder = tempDir();
    const options = { folder, caseName: 'Paris weather' };
    const recorded = await runCase({ ...options, mode: 'record' }, 'What is the weather in Paris?');
    const before = await server.requestCount();
    const results = [];
    for (let run = 0; run < 100; run++) results.push(JSON.stringify(await runCase({ ...options, mode: 'replay' }, 'What is the weather in Paris?')));
    expect(new Set(results)).toEqual(new Set([JSON.stringify(recorded)]));
    expect(await server.requestCount()).toBe(before);
  });

  it('writes no secret: not the key sent in a header, not a key-shaped string in a prompt', async () => {
    const folder = tempDir();
    const leakyPrompt = `What is the weather in Paris? My key is ${FAKE_KEY} and my token is ghp_abcdefghijklmnopqrstuvwxyz0123`;
    await runCase({ mode: 'record', folder, caseName: 'leaky' }, leakyPrompt);
    const texts = cassetteTexts(folder);
    expect(texts).toHaveLength(2);
    for (const text of texts) {
      expect(text).not.toContain('FAKEfakeFAKE');
      expect(text).not.toContain('ghp_abc');
      expect(text).not.toMatch(/authorization|bearer/i);
      expect(text).toContain('My key is *** and my token is ***');
    }
    // The masked prompt is what the key was made from: the same leaky prompt replays.
    const replayed = await runCase({ mode: 'replay', folder, caseName: 'leaky' }, leakyPrompt, vi.fn<ModelFetch>());
    expect(replayed.text).toBe('It is sunny in Paris.');
  });

  it('records the same run twice into byte-identical files', async () => {
    const folder = tempDir();
    await runCase({ mode: 'record', folder, caseName: 'twice' }, 'What is the weather in Paris?');
    const first = cassetteTexts(folder);
    await runCase({ mode: 'record', folder, caseName: 'twice' }, 'What is the weather in Paris?');
    expect(cassetteTexts(folder)).toEqual(first);
    for (const text of first) {
      expect(text.endsWith('}\n')).toBe(true);
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});

/** The AI SDK may wrap what fetch threw; the miss is the error itself or one of its causes. */
function findMiss(error: unknown): CassetteMissError {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) if (current instanceof CassetteMissError) return current;
  throw new Error(`not a cassette miss: ${String(error)}`);
}
