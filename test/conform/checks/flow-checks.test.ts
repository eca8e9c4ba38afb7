import { describe, expect, it } from 'vitest';
import { cancellationHonoured } from '../../../src/conform/checks/cancellation-honoured.js';
import { paginationCursors } from '../../../src/conform/checks/pagination-cursors.js';
import { progressMonotonic } from '../../../src/conform/checks/progress-monotonic.js';
import { madeCalls } from '../../../src/conform/checks/made-calls.js';
import { cleanServer, ECHO_TOOL } from '../clean-script.js';
import { contextFor, FakeChannel } from '../fake-channel.js';
import { runCheck } from './run-check.js';

const slowCall = [{ tool: 'slow.job', arguments: {}, generated: true }];

describe('pagination.cursors', () => {
  it('passes cursors followed, stable, and an invalid cursor answered -32602', async () => {
    const outcome = await runCheck(paginationCursors, cleanServer());
    expect(outcome.verdict).toBe('pass');
    expect(outcome.message).toBe('tools/list, resources/list, resources/templates/list, prompts/list: 5 pages followed, stable; an invalid cursor answered -32602');
  });

  it('fails a repeated cursor and an item on two pages', async () => {
    const looping = await runCheck(paginationCursors, cleanServer({ 'tools/list': () => ({ result: { tools: [ECHO_TOOL], nextCursor: 'same' } }) }));
    expect(looping).toMatchObject({ verdict: 'fail', message: 'tools/list stopped: page 2 sent the cursor "same" again' });
    const twice = await runCheck(paginationCursors, cleanServer({ 'tools/list': (params) => ({ result: params.cursor ? { tools: [ECHO_TOOL] } : { tools: [ECHO_TOOL], nextCursor: 'p2' } }) }));
    expect(twice).toMatchObject({ verdict: 'fail', message: 'tools/list: "echo" is on page 1 and again on page 2' });
  });

  it('warns a listing that changes between two passes and an ignored invalid cursor', async () => {
    let pass = 0;
    const drifting = await runCheck(paginationCursors, cleanServer({ 'prompts/list': () => ({ result: { prompts: [{ name: `p${pass++}` }] } }) }));
    expect(drifting).toMatchObject({ verdict: 'warn', message: 'prompts/list listed twice gave different items ("p0", "p1"): cursors are not stable' });
    const ignoring = await runCheck(paginationCursors, cleanServer({ 'tools/list': () => ({ result: { tools: [ECHO_TOOL] } }) }));
    expect(ignoring).toMatchObject({ verdict: 'warn', message: 'tools/list with an invalid cursor answered with a result instead of error -32602' });
  });
});

describe('progress.monotonic', () => {
  it('skips without calls, or when no progress came', async () => {
    expect((await runCheck(progressMonotonic, cleanServer())).verdict).toBe('skip');
    const quiet = await runCheck(progressMonotonic, cleanServer(), { calls: [{ tool: 'echo', arguments: { text: 'x' }, generated: false }] });
    expect(quiet).toMatchObject({ verdict: 'skip', message: 'the server sent no progress notifications during 1 call (it MAY send none)' });
  });

  it('passes increasing progress before the response', async () => {
    expect(await runCheck(progressMonotonic, cleanServer(), { calls: slowCall })).toMatchObject({
      verdict: 'pass',
      message: '2 progress notifications on 1 call, increasing, none after the response',
    });
  });

  it('fails progress that goes back, and progress after the response', async () => {
    const backwards = cleanServer({
      'tools/call': (params, call) => {
        const token = (params._meta as { progressToken: string }).progressToken;
        call.emit('notifications/progress', { progressToken: token, progress: 5 });
        call.emit('notifications/progress', { progressToken: token, progress: 3 });
        return { result: { content: [] } };
      },
    });
    expect((await runCheck(progressMonotonic, backwards, { calls: slowCall })).message).toBe('progress for "toolrun-call-1" went from 5 to 3 (it MUST increase)');
    const late = cleanServer({
      'tools/call': (params, call) => {
        const token = (params._meta as { progressToken: string }).progressToken;
        setTimeout(() => call.emit('notifications/progress', { progressToken: token, progress: 1 }), 1);
        return { result: { content: [] } };
      },
    });
    // The calls are made once per channel (tools.call-results makes them first); the progress check
    // runs later and judges every frame that came by then, the late one included.
    const channel = new FakeChannel(late);
    const context = contextFor(channel, { calls: slowCall });
    await madeCalls(context);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await progressMonotonic.run(context)).toMatchObject({ verdict: 'fail', message: 'notifications/progress for the call of "slow.job" came after its response' });
  });
});

describe('cancellation.honoured', () => {
  it('skips without a planned call', async () => {
    expect((await runCheck(cancellationHonoured, cleanServer())).message).toBe('no tool was called (tools are called only with --call or --call-all); cancellation is tested on a planned call');
  });

  it('passes a server that stops answering a cancelled call and still answers ping', async () => {
    const outcome = await runCheck(cancellationHonoured, cleanServer(), { calls: slowCall, timeoutMs: 100 });
    expect(outcome).toMatchObject({
      verdict: 'pass',
      message: 'tools/call "slow.job" (id 2) was not answered within 100 ms of its cancellation; ping answered afterwards (the tool was called once more for this)',
    });
    const sent = outcome.channel.frames.filter((frame) => frame.direction === 'sent').map((frame) => (frame.message as { method: string }).method);
    expect(sent).toEqual(['tools/call', 'tools/call', 'notifications/cancelled', 'ping']);
  });

  it('warns an answer after the cancel, with the frame', async () => {
    const ignoring = cleanServer({ 'tools/call': async () => new Promise((resolve) => setTimeout(() => resolve({ result: { content: [] } }), 120)) });
    const outcome = await runCheck(cancellationHonoured, ignoring, { calls: slowCall, timeoutMs: 300 });
    expect(outcome).toMatchObject({ verdict: 'warn', message: 'tools/call "slow.job" (id 2) was answered after notifications/cancelled (servers SHOULD NOT answer a cancelled request)' });
    expect(outcome.evidence?.[0]?.frame).toMatchObject({ id: 2, result: { content: [] } });
  });

  it('does not judge a call too fast to cancel (the spec allows the race)', async () => {
    const instant = cleanServer({ 'tools/call': () => ({ result: { content: [] } }) });
    const outcome = await runCheck(cancellationHonoured, instant, { calls: slowCall, timeoutMs: 100 });
    expect(outcome).toMatchObject({
      verdict: 'skip',
      message: expect.stringMatching(/^every planned call answers within 100 ms \(the slowest, "slow.job", took \d+ ms\), before a cancel can reach it; not judged$/) as unknown,
    });
  });

  it('fails a server that stops answering ping after a cancellation', async () => {
    const wedged = cleanServer({ ping: () => undefined }, {});
    const outcome = await runCheck(cancellationHonoured, wedged, { calls: slowCall, timeoutMs: 100 });
    expect(outcome).toMatchObject({ verdict: 'fail', message: 'after the cancellation, ping got no answer within 100 ms' });
  });

  it('uses server/discover in 2026-07-28 and skips HTTP without a stream-closing cancel', async () => {
    const modern = await runCheck(cancellationHonoured, cleanServer({ 'server/discover': () => ({ result: { supportedVersions: ['2026-07-28'], capabilities: {} } }) }, { era: 'modern' }), {
      calls: slowCall,
      timeoutMs: 100,
    });
    expect(modern.message).toMatch(/server\/discover answered afterwards/);
    const http = await runCheck(cancellationHonoured, cleanServer({}, { era: 'modern', transport: 'http' }), { calls: slowCall });
    expect(http).toMatchObject({ verdict: 'skip', message: '2026-07-28 over HTTP cancels a request by closing its response stream, which this connection cannot do' });
  });
});
