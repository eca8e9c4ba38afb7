import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ToolrunError } from '../../src/errors.js';
import { canonicalRequest, requestKey } from '../../src/eval/cassette/canonical-request.js';
import { cassetteFetch, CassetteMissError } from '../../src/eval/cassette/cassette-fetch.js';
import { caseSlug } from '../../src/eval/cassette/cassette-files.js';
import { jsonDifferences } from '../../src/eval/cassette/json-differences.js';
import type { ModelFetch } from '../../src/eval/model-fetch.js';
import { tempDir } from '../helpers/temp-config.js';

const FAKE_KEY = 'sk-ant-FAKEfakeFAKEfake0123456789';
const URL_A = 'https://api.example.com/v1/chat/completions';
const body = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });
const post = (text: string) => ({ method: 'POST', headers: { authorization: `Bearer ${FAKE_KEY}`, 'x-api-key': FAKE_KEY }, body: text });
const answer = (text = '{"choices":[]}', status = 200) => new Response(text, { status, headers: { 'content-type': 'application/json', 'x-request-id': 'req_123' } });

describe('the canonical request', () => {
  it('is the method, the path without host, and the body with sorted keys and no volatile field', () => {
    const request = canonicalRequest('post', `${URL_A}?api-version=2&key=${FAKE_KEY}`, body({ user: 'u1', metadata: { user_id: 'x' }, stream_options: { include_usage: true }, temperature: 0 }));
    expect(request).toEqual({ method: 'POST', path: '/v1/chat/completions?api-version=2', body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0 } });
  });

  it('has one key whatever the host, the key order or the volatile fields, and another for another prompt', () => {
    const key = requestKey(canonicalRequest('POST', URL_A, body()));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(requestKey(canonicalRequest('POST', 'http://127.0.0.1:8080/v1/chat/completions', JSON.stringify({ messages: [{ content: 'hi', role: 'user' }], model: 'm', user: 'u2' })))).toBe(key);
    expect(requestKey(canonicalRequest('POST', URL_A, body({ messages: [{ role: 'user', content: 'hello' }] })))).not.toBe(key);
    expect(requestKey(canonicalRequest('POST', URL_A, body({ stream: true })))).not.toBe(key);
  });

  it("keys the path after the base URL: a proxy's own path prefix, or none, gives the same key", () => {
    const direct = canonicalRequest('POST', URL_A, body(), 'https://api.example.com/v1');
    expect(direct.path).toBe('/chat/completions');
    const proxied = canonicalRequest('POST', 'https://gateway.example/team/openai/v1/chat/completions', body(), 'https://gateway.example/team/openai/v1/');
    expect(requestKey(proxied)).toBe(requestKey(direct));
    // A URL outside the base URL (another origin, another path) keeps its whole path.
    expect(canonicalRequest('POST', 'https://other.example/v1/chat/completions', body(), 'https://api.example.com/v1').path).toBe('/v1/chat/completions');
    expect(canonicalRequest('POST', 'https://api.example.com/v10/chat', body(), 'https://api.example.com/v1').path).toBe('/v10/chat');
  });
});

describe('jsonDifferences', () => {
  it('lists differing paths in document order, arrays by index, an absent side as undefined', () => {
    const now = { model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'tool' }], tools: { 'get.x': 1 } };
    const recorded = { model: 'n', messages: [{ role: 'user', content: 'b' }], tools: { 'get.x': 2 } };
    expect(jsonDifferences(now, recorded)).toEqual([
      { path: 'messages[0].content', actual: 'a', recorded: 'b' },
      { path: 'messages[1]', actual: { role: 'tool' }, recorded: undefined },
      { path: 'model', actual: 'm', recorded: 'n' },
      { path: 'tools["get.x"]', actual: 1, recorded: 2 },
    ]);
    expect(jsonDifferences(now, recorded, 2)).toHaveLength(2);
    expect(jsonDifferences([1, { a: [] }], [1, { a: [] }])).toEqual([]);
    expect(jsonDifferences({ a: [1] }, { a: { 0: 1 } })).toEqual([{ path: 'a', actual: [1], recorded: { 0: 1 } }]);
  });
});

describe('cassetteFetch', () => {
  it('records no header and masks keys in both bodies (a fake key in a header, in the prompt and in the answer)', async () => {
    const folder = tempDir();
    const live = vi.fn<ModelFetch>(async () => answer(`{"echo":"you said ${FAKE_KEY}"}`));
    const response = await cassetteFetch({ mode: 'record', folder, caseName: 'Secret case' }, live)(URL_A, post(body({ messages: [{ role: 'user', content: `key ${FAKE_KEY}` }] })));
    expect(await response.text()).toBe('{"echo":"you said ***"}');
    expect(live).toHaveBeenCalledOnce();
    const [file] = readdirSync(join(folder, 'secret-case'));
    const text = readFileSync(join(folder, 'secret-case', file!), 'utf8');
    expect(text).not.toContain('FAKEfake');
    expect(text).not.toMatch(/authorization|x-api-key|x-request-id|bearer/i);
    expect(JSON.parse(text)).toEqual({
      key: file!.replace(/\.json$/, ''),
      request: { body: { messages: [{ content: 'key ***', role: 'user' }], model: 'm' }, method: 'POST', path: '/v1/chat/completions' },
      response: { body: '{"echo":"you said ***"}', headers: { 'content-type': 'application/json' }, status: 200 },
    });
  });

  it('replays a hit without calling live, with the recorded status, content-type and body', async () => {
    const folder = tempDir();
    await cassetteFetch({ mode: 'record', folder, caseName: 'c' }, async () => answer('{"ok":1}', 201))(URL_A, post(body()));
    const live = vi.fn<ModelFetch>();
    const response = await cassetteFetch({ mode: 'replay', folder, caseName: 'c' }, live)(new Request('http://elsewhere:1/v1/chat/completions', post(body({ user: 'other' }))));
    expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([201, 'application/json', '{"ok":1}']);
    expect(live).not.toHaveBeenCalled();
  });

  it('names the first difference against the closest recording of the case (fewest differences)', async () => {
    const folder = tempDir();
    const record = cassetteFetch({ mode: 'record', folder, caseName: 'c' }, async () => answer());
    await record(URL_A, post(JSON.stringify({ model: 'other', temperature: 1, messages: [{ role: 'user', content: 'hi' }] })));
    await record(
      URL_A,
      post(
        body({
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'old answer' },
          ],
        }),
      ),
    );
    const miss = await cassetteFetch({ mode: 'replay', folder, caseName: 'c' }, vi.fn<ModelFetch>())(
      URL_A,
      post(
        body({
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'new answer' },
          ],
        }),
      ),
    ).catch((error: unknown) => error);
    expect(miss).toBeInstanceOf(CassetteMissError);
    expect((miss as CassetteMissError).message).toBe(
      'eval case "c": no cassette matches this model request; the closest recorded one differs at messages[1].content: "new answer" (now) ≠ "old answer" (recorded); run toolrun eval --record to record the model again',
    );
  });

  it('names the URL path when only it differs, and says when a case has no cassette at all', async () => {
    const folder = tempDir();
    await cassetteFetch({ mode: 'record', folder, caseName: 'c' }, async () => answer())(URL_A, post(body()));
    const replay = (caseName: string) =>
      cassetteFetch({ mode: 'replay', folder, caseName }, vi.fn<ModelFetch>())('https://api.example.com/v1/responses', post(body())).catch((error: Error) => error.message);
    expect(await replay('c')).toContain('differs at URL path: "/v1/responses" (now) ≠ "/v1/chat/completions" (recorded);');
    expect(await replay('Never recorded')).toBe(`eval case "Never recorded": no cassette recorded in ${join(folder, 'never-recorded')}; run toolrun eval --record to record the model again`);
  });

  it('passes an error answer through unrecorded (a bad key is no behaviour to replay)', async () => {
    const folder = tempDir();
    const response = await cassetteFetch({ mode: 'record', folder, caseName: 'c' }, async () => answer('{"error":"bad key"}', 401))(URL_A, post(body()));
    expect([response.status, await response.text()]).toEqual([401, '{"error":"bad key"}']);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('is live itself in live mode', () => {
    const live = vi.fn<ModelFetch>();
    expect(cassetteFetch({ mode: 'live', folder: '/nowhere', caseName: 'c' }, live)).toBe(live);
  });

  it('refuses a cassette file that is not one, naming it and the fix', async () => {
    const folder = tempDir();
    const key = requestKey(canonicalRequest('POST', URL_A, body()));
    mkdirSync(join(folder, 'c'));
    writeFileSync(join(folder, 'c', `${key}.json`), '{"key": 1}\n');
    const error = await cassetteFetch({ mode: 'replay', folder, caseName: 'c' })(URL_A, post(body())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolrunError);
    expect((error as ToolrunError).message).toBe(
      `${join(folder, 'c', `${key}.json`)} is not a cassette (it needs key, request and response with status, headers and body); re-record it with toolrun eval --record`,
    );
  });

  it('never writes through a symbolic link planted as the case folder', async () => {
    const folder = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(folder, 'c'));
    const error = await cassetteFetch({ mode: 'record', folder, caseName: 'c' }, async () => answer())(URL_A, post(body())).catch((caught: Error) => caught.message);
    expect(error).toMatch(/^cannot write the cassette .*: .* is a symbolic link, not a folder; remove it$/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('caseSlug', () => {
  it('makes a case name a folder name', () => {
    expect(['Paris weather', '  ../../etc/passwd ', 'Größe: 3 €', '', '日本の天気', 'NUL', 'a/b\\c'].map(caseSlug)).toEqual([
      'paris-weather',
      'etc-passwd',
      'größe-3',
      'case',
      '日本の天気',
      'nul-case',
      'a-b-c',
    ]);
  });
});
