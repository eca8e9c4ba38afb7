import { describe, expect, it } from 'vitest';
import { toolCallResults } from '../../../src/conform/checks/tool-call-results.js';
import { toolInputSchema } from '../../../src/conform/checks/tool-input-schema.js';
import { toolNames } from '../../../src/conform/checks/tool-names.js';
import { toolOutputSchema } from '../../../src/conform/checks/tool-output-schema.js';
import { unknownTool } from '../../../src/conform/checks/unknown-tool.js';
import { cleanServer, ECHO_TOOL } from '../clean-script.js';
import type { ScriptedServer } from '../fake-channel.js';
import { runCheck } from './run-check.js';

const listing = (...tools: Record<string, unknown>[]): ScriptedServer => cleanServer({ 'tools/list': () => ({ result: { tools } }) });
const schema = { type: 'object' };

describe('tools.names', () => {
  it('passes on unique names within the rules', async () => {
    expect(await runCheck(toolNames, cleanServer())).toMatchObject({ verdict: 'pass', message: '2 tool names, unique and within the naming rules' });
  });

  it('fails a name listed twice (across pages too) and warns a name with a space', async () => {
    const twice = await runCheck(toolNames, listing({ name: 'echo', inputSchema: schema }, { name: 'echo', inputSchema: schema }));
    expect(twice).toMatchObject({ verdict: 'fail', message: 'tool name "echo" is listed twice (result.tools[1].name)' });
    expect(twice.evidence?.[0]?.path).toBe('result.tools[1].name');
    const spaced = await runCheck(toolNames, listing({ name: 'get weather', inputSchema: schema }));
    expect(spaced).toMatchObject({ verdict: 'warn', message: 'tool name "get weather" has characters outside A-Z a-z 0-9 _ - . (result.tools[0].name)' });
  });

  it('applies the character rules only from 2025-11-25 on', async () => {
    const older = await runCheck(toolNames, { ...listing({ name: 'get weather', inputSchema: schema }), protocolVersion: '2025-06-18' });
    expect(older).toMatchObject({ verdict: 'pass', message: '1 tool names, unique' });
  });

  it('skips a server without tools', async () => {
    expect((await runCheck(toolNames, cleanServer({}, { capabilities: {} }))).message).toBe('the server advertises no tools');
  });
});

describe('tools.input-schema', () => {
  it('passes on object schemas (2020-12 by default)', async () => {
    const prefixItems = { name: 'tuple', inputSchema: { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } } } };
    expect((await runCheck(toolInputSchema, listing(ECHO_TOOL, prefixItems))).verdict).toBe('pass');
  });

  it('fails a tool without inputSchema, with the frame and path', async () => {
    const outcome = await runCheck(toolInputSchema, listing(ECHO_TOOL, { name: 'bare' }));
    expect(outcome).toMatchObject({ verdict: 'fail', message: 'tool "bare" has no inputSchema (result.tools[1].inputSchema)' });
    expect(outcome.evidence?.[0]).toMatchObject({ path: 'result.tools[1].inputSchema', direction: 'received' });
  });

  it('fails a non-object type and a schema that is not valid JSON Schema', async () => {
    const stringly = await runCheck(toolInputSchema, listing({ name: 's', inputSchema: { type: 'string' } }));
    expect(stringly.message).toBe('tool "s" has an inputSchema whose type is not "object" (result.tools[0].inputSchema.type)');
    const broken = await runCheck(toolInputSchema, listing({ name: 'b', inputSchema: { type: 'object', properties: { n: { type: 'nonsense' } } } }));
    expect(broken.verdict).toBe('fail');
    expect(broken.message).toMatch(/^tool "b" inputSchema: it is not valid JSON Schema 2020-12: \/properties\/n\/type must be equal to one of the allowed values/);
  });
});

describe('tools.output-schema', () => {
  it('passes a valid object outputSchema and skips when none is declared', async () => {
    expect((await runCheck(toolOutputSchema, cleanServer())).message).toBe('1 outputSchemas, all valid');
    expect((await runCheck(toolOutputSchema, listing({ name: 'x', inputSchema: schema }))).verdict).toBe('skip');
  });

  it('fails a non-object outputSchema in 2025-11-25 but not in 2026-07-28', async () => {
    const arrayOutput = { name: 'rows', inputSchema: schema, outputSchema: { type: 'array', items: { type: 'string' } } };
    expect((await runCheck(toolOutputSchema, listing(arrayOutput))).message).toBe('tool "rows" has an outputSchema whose type is not "object" (result.tools[0].outputSchema.type)');
    expect((await runCheck(toolOutputSchema, { ...listing(arrayOutput), era: 'modern' })).verdict).toBe('pass');
  });
});

describe('tools.call-results', () => {
  const echoCall = [{ tool: 'echo', arguments: { text: 'hi' }, generated: false }];

  it('skips without calls, saying how to make them', async () => {
    expect((await runCheck(toolCallResults, cleanServer())).message).toBe('no tool was called (tools are called only with --call or --call-all)');
  });

  it('passes structuredContent matching the outputSchema', async () => {
    expect(await runCheck(toolCallResults, cleanServer(), { calls: echoCall })).toMatchObject({ verdict: 'pass', message: '1 call answered well-formed results' });
  });

  it('fails structuredContent that does not match, naming the path', async () => {
    const wrong = cleanServer({ 'tools/call': () => ({ result: { content: [], structuredContent: { echoed: 5 } } }) });
    const outcome = await runCheck(toolCallResults, wrong, { calls: echoCall });
    expect(outcome).toMatchObject({ verdict: 'fail', message: 'tools/call "echo": structuredContent does not match the outputSchema: result.structuredContent.echoed must be string' });
    expect(outcome.evidence?.[0]?.path).toBe('result.structuredContent.echoed');
  });

  it("does not judge a call that outlives toolrun's own --timeout (a slow tool is not a broken one)", async () => {
    const slow = cleanServer({ 'tools/call': () => undefined });
    expect(await runCheck(toolCallResults, slow, { calls: echoCall, timeoutMs: 30 })).toMatchObject({
      verdict: 'skip',
      message: 'not judged: "echo" ran longer than --timeout (30 ms) and was cancelled (raise --timeout to judge it)',
    });
  });

  it('fails a missing structuredContent unless the result is an error', async () => {
    const missing = cleanServer({ 'tools/call': () => ({ result: { content: [{ type: 'text', text: 'hi' }] } }) });
    expect((await runCheck(toolCallResults, missing, { calls: echoCall })).message).toBe('tools/call "echo": the tool declares an outputSchema but the result has no structuredContent');
    const isError = cleanServer({ 'tools/call': () => ({ result: { content: [{ type: 'text', text: 'bad' }], isError: true } }) });
    expect((await runCheck(toolCallResults, isError, { calls: echoCall })).verdict).toBe('pass');
  });
});

describe('tools.unknown-tool', () => {
  it('passes on -32602', async () => {
    expect((await runCheck(unknownTool, cleanServer())).verdict).toBe('pass');
  });

  it('fails a successful result and warns an isError result', async () => {
    const ok = await runCheck(unknownTool, cleanServer({ 'tools/call': () => ({ result: { content: [] } }) }));
    expect(ok).toMatchObject({ verdict: 'fail', message: 'tools/call of the unknown tool "toolrun-no-such-tool" answered with a successful result instead of error -32602' });
    const isError = await runCheck(unknownTool, cleanServer({ 'tools/call': () => ({ result: { content: [], isError: true } }) }));
    expect(isError.verdict).toBe('warn');
  });
});
