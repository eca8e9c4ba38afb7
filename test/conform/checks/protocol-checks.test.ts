import { describe, expect, it } from 'vitest';
import { capabilitiesHonest } from '../../../src/conform/checks/capabilities-honest.js';
import { invalidParams } from '../../../src/conform/checks/invalid-params.js';
import { ping } from '../../../src/conform/checks/ping.js';
import { unknownMethod } from '../../../src/conform/checks/unknown-method.js';
import { answersEverything, cleanServer } from '../clean-script.js';
import { methodNotFound } from '../fake-channel.js';

/** The clean server with only tools and prompts: the other features' methods answer -32601. */
const toolsAndPrompts = (era: 'legacy' | 'modern' = 'legacy') =>
  cleanServer({ 'resources/list': methodNotFound, 'completion/complete': methodNotFound, 'logging/setLevel': methodNotFound }, { era, capabilities: { tools: {}, prompts: {} } });
import { runCheck } from './run-check.js';

describe('capabilities.honest', () => {
  it('passes when advertised methods are served and the others answer -32601', async () => {
    const outcome = await runCheck(capabilitiesHonest, toolsAndPrompts());
    expect(outcome.verdict).toBe('pass');
    expect(outcome.message).toBe('tools, prompts advertised and served; resources, completions, logging not advertised and answer -32601');
  });

  it('fails a server answering an unadvertised method with a result, quoting the frame', async () => {
    const outcome = await runCheck(capabilitiesHonest, { capabilities: { tools: {} }, handlers: cleanServer().handlers, fallback: answersEverything });
    expect(outcome.verdict).toBe('fail');
    expect(outcome.message).toMatch(/^resources\/list \(capability "resources" not advertised\) answered with a result instead of error -32601/);
    expect(outcome.evidence?.[0]).toMatchObject({ direction: 'received', path: 'result', frame: { result: {} } });
  });

  it('fails an advertised capability whose method answers -32601', async () => {
    const outcome = await runCheck(capabilitiesHonest, cleanServer({ 'completion/complete': () => ({ error: { code: -32601, message: 'Method not found' } }) }));
    expect(outcome.verdict).toBe('fail');
    expect(outcome.message).toBe('completion/complete (capability "completions" advertised) answered -32601 (Method not found)');
  });

  it('leaves logging/setLevel out in 2026-07-28, which removed it', async () => {
    const outcome = await runCheck(capabilitiesHonest, toolsAndPrompts('modern'));
    expect(outcome.verdict).toBe('pass');
    expect(outcome.channel.frames.some((frame) => (frame.message as { method?: string }).method === 'logging/setLevel')).toBe(false);
  });
});

describe('jsonrpc.unknown-method', () => {
  it('passes on -32601 and fails on a result', async () => {
    expect((await runCheck(unknownMethod, cleanServer())).verdict).toBe('pass');
    const lying = await runCheck(unknownMethod, { handlers: {}, fallback: answersEverything });
    expect(lying.verdict).toBe('fail');
    expect(lying.message).toBe('toolrun/no-such-method answered with a result instead of error -32601');
  });

  it('fails another error code and no answer', async () => {
    const wrongCode = await runCheck(unknownMethod, { handlers: {}, fallback: () => ({ error: { code: -32603, message: 'oops' } }) });
    expect(wrongCode.verdict).toBe('fail');
    expect(wrongCode.message).toBe('toolrun/no-such-method answered error -32603 (oops) instead of error -32601');
    const silent = await runCheck(unknownMethod, { handlers: {}, fallback: () => undefined }, { timeoutMs: 50 });
    expect(silent.message).toBe('toolrun/no-such-method got no answer within 50 ms');
  });
});

describe('ping', () => {
  it('passes on {} and fails on an error or a non-empty result', async () => {
    expect((await runCheck(ping, cleanServer())).verdict).toBe('pass');
    const full = await runCheck(ping, cleanServer({ ping: () => ({ result: { pong: true } }) }));
    expect(full.verdict).toBe('fail');
    expect(full.message).toBe('ping answered a result that is not empty (result.pong)');
    const missing = await runCheck(ping, cleanServer({ ping: () => ({ error: { code: -32601, message: 'Method not found' } }) }));
    expect(missing.message).toBe('ping got error -32601 (Method not found)');
  });

  it('skips in 2026-07-28, which removed ping', async () => {
    const outcome = await runCheck(ping, cleanServer({}, { era: 'modern' }));
    expect(outcome).toMatchObject({ verdict: 'skip', message: 'ping is not part of 2026-07-28 (removed with the stateless protocol)' });
  });
});

describe('params.invalid', () => {
  it('passes when each advertised method without its required parameter answers -32602', async () => {
    const outcome = await runCheck(invalidParams, cleanServer());
    expect(outcome.verdict).toBe('pass');
    expect(outcome.message).toBe('tools/call, resources/read, prompts/get without their required parameter answered -32602');
  });

  it('fails a result and warns another code', async () => {
    const lying = await runCheck(invalidParams, cleanServer({ 'resources/read': () => ({ result: { contents: [] } }) }));
    expect(lying.verdict).toBe('fail');
    expect(lying.message).toBe('resources/read without "uri" answered with a result instead of error -32602');
    const wrongCode = await runCheck(invalidParams, cleanServer({ 'prompts/get': () => ({ error: { code: -32603, message: 'crash' } }) }));
    expect(wrongCode.verdict).toBe('warn');
    expect(wrongCode.message).toBe('prompts/get without "name" answered error -32603 (crash) instead of error -32602');
  });

  it('skips a server with none of the capabilities', async () => {
    expect((await runCheck(invalidParams, cleanServer({}, { capabilities: {} }))).message).toBe('the server advertises no tools, resources or prompts');
  });
});
