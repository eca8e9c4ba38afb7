import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(async () => {
  await server.stop();
});

async function complete(messages: unknown[], extra: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted-1', messages, ...extra }),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

/** The assistant's message: its text, or its one tool call as name and parsed arguments. */
async function assistantTurn(messages: unknown[]) {
  const { status, text } = await complete(messages);
  expect(status).toBe(200);
  const choice = JSON.parse(text).choices[0];
  const call = choice.message.tool_calls?.[0];
  return call ? { call: call.function.name, args: JSON.parse(call.function.arguments), finish: choice.finish_reason } : { text: choice.message.content, finish: choice.finish_reason };
}

const user = (content: string) => ({ role: 'user', content });
const called = (name: string) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: '{}' } }] });
const result = { role: 'tool', tool_call_id: 'call_1', content: '{}' };

describe('scripted-model-server.js', () => {
  it('prints its origin on stdout and counts completions at GET /requests', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const before = await server.requestCount();
    await complete([user('What is the weather in Paris?')]);
    expect(await server.requestCount()).toBe(before + 1);
  });

  it('plays each scenario of fixtures/eval/model-script.json, turn by turn after the last user message', async () => {
    expect(await assistantTurn([user('What is the weather in Paris?')])).toEqual({ call: 'get_weather', args: { city: 'Paris' }, finish: 'tool_calls' });
    expect(await assistantTurn([user('What is the weather in Paris?'), called('get_weather'), result])).toEqual({ text: 'It is sunny in Paris.', finish: 'stop' });
    expect(await assistantTurn([user('What is the weather in Rome?')])).toEqual({ call: 'get_forecast', args: { city: 'Rome', days: 3 }, finish: 'tool_calls' });
    expect(await assistantTurn([user('What is the weather in Oslo?')])).toEqual({ call: 'get_weather', args: { town: 'Oslo' }, finish: 'tool_calls' });
    expect(await assistantTurn([user('What is the weather in Kyoto?')])).toEqual({ call: 'mcp_weather_get_weather', args: { city: 'Kyoto' }, finish: 'tool_calls' });
    // Too many turns: the last turn repeats for ever.
    const looping = [user('The weather everywhere, please'), called('get_weather'), result, called('get_weather'), result, called('get_weather'), result];
    expect(await assistantTurn(looping)).toEqual({ call: 'get_weather', args: { city: 'Lima' }, finish: 'tool_calls' });
  });

  it('answers the same request with the same bytes', async () => {
    const messages = [user('What is the weather in Paris?')];
    const first = await complete(messages);
    expect(await complete(messages)).toEqual(first);
    // Tokens: a quarter of the messages' JSON (58 characters here), the answer's a quarter of its text plus one.
    expect(JSON.parse(first.text)).toMatchObject({ id: 'chatcmpl-scripted-0-0', created: 0, model: 'scripted-1', usage: { prompt_tokens: 15, completion_tokens: 5, total_tokens: 20 } });
  });

  it('streams SSE chunks ending with [DONE] when asked to', async () => {
    const { status, contentType, text } = await complete([user('What is the weather in Paris?'), called('get_weather'), result], { stream: true });
    expect([status, contentType]).toEqual([200, 'text/event-stream']);
    const events = text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('It is sunny in Paris.');
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason ?? null).filter(Boolean)).toEqual(['stop']);
    expect(chunks.at(-1).usage).toEqual({ prompt_tokens: 63, completion_tokens: 7, total_tokens: 70 });
  });

  it('streams a tool call as its name, then its arguments in two pieces', async () => {
    const { text } = await complete([user('What is the weather in Rome?')], { stream: true });
    const calls = text
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .flatMap((event) => JSON.parse(event.slice(6)).choices[0]?.delta.tool_calls ?? []);
    expect(calls.map((call: { function: { arguments: string } }) => call.function.arguments).join('')).toBe('{"city":"Rome","days":3}');
    expect(calls[0]).toMatchObject({ index: 0, id: 'call_1_0', type: 'function', function: { name: 'get_forecast' } });
  });

  it('answers what it cannot play with a 400 naming the problem and the fix', async () => {
    const unmatched = await complete([user('Tell me a joke')]);
    expect(unmatched.status).toBe(400);
    expect(JSON.parse(unmatched.text).error.message).toBe(`no scenario of ${join(ROOT, 'fixtures/eval/model-script.json')} matches the last user message "Tell me a joke"; add one`);
    expect(JSON.parse((await complete([])).text).error.message).toBe('the request has no user message; send one');
    const wrongRoute = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect([wrongRoute.status, ((await wrongRoute.json()) as { error: { message: string } }).error.message]).toEqual([
      404,
      'no route POST /v1/embeddings: use POST …/chat/completions, …/responses, …/messages, …/models/MODEL:generateContent or GET /requests',
    ]);
  });
});
