import { describe, expect, it } from 'vitest';
import { promptsGet } from '../../../src/conform/checks/prompts-get.js';
import { promptsUnknown } from '../../../src/conform/checks/prompts-unknown.js';
import { resourceTemplates } from '../../../src/conform/checks/resource-templates.js';
import { resourcesReadable } from '../../../src/conform/checks/resources-readable.js';
import { resourcesUnknownUri } from '../../../src/conform/checks/resources-unknown-uri.js';
import { cleanServer } from '../clean-script.js';
import { methodNotFound } from '../fake-channel.js';
import { runCheck } from './run-check.js';

describe('resources.readable', () => {
  it('reads every listed resource', async () => {
    expect(await runCheck(resourcesReadable, cleanServer())).toMatchObject({ verdict: 'pass', message: 'read all 1 listed resources' });
  });

  it('fails a listed resource that does not read, and contents without uri', async () => {
    const unreadable = await runCheck(resourcesReadable, cleanServer({ 'resources/read': () => ({ error: { code: -32002, message: 'Resource not found' } }) }));
    expect(unreadable).toMatchObject({ verdict: 'fail', message: 'resources/read of the listed mem:///a got error -32002 (Resource not found)' });
    const nameless = await runCheck(resourcesReadable, cleanServer({ 'resources/read': () => ({ result: { contents: [{ text: 'A' }] } }) }));
    expect(nameless.message).toBe('resources/read of mem:///a: contents[0] has no uri (result.contents[0].uri)');
  });

  it('reads at most 25, saying so', async () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ uri: `mem:///${index}`, name: `r${index}` }));
    const server = cleanServer({ 'resources/list': () => ({ result: { resources: many } }), 'resources/read': (params) => ({ result: { contents: [{ uri: params.uri, text: '' }] } }) });
    const outcome = await runCheck(resourcesReadable, server);
    expect(outcome.message).toBe('read the first 25 of 30 listed resources');
    expect(outcome.channel.frames.filter((frame) => (frame.message as { method?: string }).method === 'resources/read')).toHaveLength(25);
  });
});

describe('resources.unknown-uri', () => {
  it('expects -32002 in 2025-11-25 (another code warns) and -32602 in 2026-07-28 (a MUST)', async () => {
    expect((await runCheck(resourcesUnknownUri, cleanServer())).verdict).toBe('pass');
    const invalidParams = () => ({ error: { code: -32602, message: 'Resource not found' } });
    expect((await runCheck(resourcesUnknownUri, cleanServer({ 'resources/read': invalidParams }))).verdict).toBe('warn');
    expect((await runCheck(resourcesUnknownUri, cleanServer({ 'resources/read': invalidParams }, { era: 'modern' }))).verdict).toBe('pass');
    const oldCode = await runCheck(resourcesUnknownUri, cleanServer({}, { era: 'modern' }));
    expect(oldCode).toMatchObject({ verdict: 'fail', message: 'resources/read of the unknown toolrun-conform:///no-such-resource answered error -32002 (Resource not found) instead of error -32602' });
  });

  it('fails a result for a resource that does not exist', async () => {
    const outcome = await runCheck(resourcesUnknownUri, cleanServer({ 'resources/read': () => ({ result: { contents: [] } }) }));
    expect(outcome).toMatchObject({ verdict: 'fail', message: 'resources/read of the unknown toolrun-conform:///no-such-resource answered with a result instead of error -32002' });
  });
});

describe('resources.templates', () => {
  it('passes a listing with uriTemplates', async () => {
    expect((await runCheck(resourceTemplates, cleanServer())).message).toBe('1 resource templates, each with a uriTemplate');
  });

  it('fails a template without uriTemplate and a listing that answers -32601', async () => {
    const bare = await runCheck(resourceTemplates, cleanServer({ 'resources/templates/list': () => ({ result: { resourceTemplates: [{ name: 'x' }] } }) }));
    expect(bare.message).toBe('a resource template has no uriTemplate (result.resourceTemplates[0].uriTemplate)');
    const missing = await runCheck(resourceTemplates, cleanServer({ 'resources/templates/list': methodNotFound }));
    expect(missing).toMatchObject({ verdict: 'fail', message: 'resources/templates/list failed: page 1 was answered with error -32601: Method not found' });
  });
});

describe('prompts.get', () => {
  it("fills a required argument from the server's completions; a refused placeholder is not judged, not a warning", async () => {
    const completing = await runCheck(promptsGet, cleanServer({ 'completion/complete': () => ({ result: { completion: { values: ['ada', 'grace'] } } }) }));
    expect(completing.verdict).toBe('pass');
    const sent = completing.channel.frames.find((frame) => (frame.message as { method?: string }).method === 'prompts/get');
    expect((sent?.message as { params: unknown }).params).toEqual({ name: 'greet', arguments: { who: 'ada' } });
    const refused = await runCheck(promptsGet, cleanServer({ 'prompts/get': () => ({ error: { code: -32602, message: 'unknown who' } }) }));
    expect(refused).toMatchObject({ verdict: 'skip', message: `not judged: "greet" refused toolrun's placeholder for who (no completion offered)` });
  });

  it('gets each prompt with its required arguments filled', async () => {
    const outcome = await runCheck(promptsGet, cleanServer());
    expect(outcome).toMatchObject({ verdict: 'pass', message: 'got all 1 listed prompts' });
    const sent = outcome.channel.frames.find((frame) => (frame.message as { method?: string }).method === 'prompts/get');
    expect((sent?.message as { params: unknown }).params).toEqual({ name: 'greet', arguments: { who: 'toolrun' } });
  });

  it('fails a prompt that errors or has no messages', async () => {
    const failing = await runCheck(
      promptsGet,
      cleanServer({ 'completion/complete': () => ({ result: { completion: { values: ['ada'] } } }), 'prompts/get': () => ({ error: { code: -32603, message: 'boom' } }) }),
    );
    expect(failing).toMatchObject({ verdict: 'warn', message: 'prompts/get of "greet" with 1 required argument (values from its completions) got error -32603 (boom)' });
    const noArguments = cleanServer({ 'prompts/list': () => ({ result: { prompts: [{ name: 'plain' }] } }), 'prompts/get': () => ({ error: { code: -32603, message: 'boom' } }) });
    expect(await runCheck(promptsGet, noArguments)).toMatchObject({ verdict: 'fail', message: 'prompts/get of "plain" got error -32603 (boom)' });
    const empty = await runCheck(promptsGet, cleanServer({ 'prompts/get': () => ({ result: {} }) }));
    expect(empty.message).toBe('prompts/get of "greet" with 1 required argument: the result has no messages array (result.messages)');
  });
});

describe('prompts.unknown', () => {
  it('passes on -32602 and fails on a result', async () => {
    expect((await runCheck(promptsUnknown, cleanServer())).verdict).toBe('pass');
    const lying = await runCheck(promptsUnknown, cleanServer({ 'prompts/get': () => ({ result: { messages: [] } }) }));
    expect(lying).toMatchObject({ verdict: 'fail', message: 'prompts/get of the unknown prompt "toolrun-no-such-prompt" answered with a result instead of error -32602' });
  });
});
