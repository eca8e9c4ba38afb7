import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConformContext } from '../../../src/conform/check-types.js';
import { CONTENT_CHECKS } from '../../../src/conform/checks/content-checks.js';
import { planCalls } from '../../../src/conform/generate-arguments.js';
import { memoizedListAll } from '../../../src/conform/list-all.js';
import { ROOT } from '../../helpers/run-toolrun.js';
import { StdioTestChannel } from '../stdio-test-channel.js';

const open: StdioTestChannel[] = [];
afterEach(async () => Promise.all(open.splice(0).map((channel) => channel.close())));

/** Runs every content check on a fixture server, with --call-all's plan; verdicts by check id. */
async function conform(fixture: string): Promise<Record<string, { verdict: string; message: string }>> {
  const channel = new StdioTestChannel(join(ROOT, 'fixtures/servers', fixture));
  open.push(channel);
  const result = await channel.handshake();
  const listAll = memoizedListAll(channel, 2000);
  const tools = channel.capabilities.tools ? (await listAll('tools/list')).items : [];
  const context: ConformContext = {
    channel,
    handshake: { method: 'initialize', result },
    capabilities: channel.capabilities,
    calls: planCalls(tools, [], true, channel.protocolVersion),
    callAll: true,
    timeoutMs: 2000,
    listAll,
    openFreshChannel: () => Promise.reject(new Error('not used by the content checks')),
    signal: new AbortController().signal,
  };
  const outcomes: Record<string, { verdict: string; message: string }> = {};
  for (const check of CONTENT_CHECKS) outcomes[check.id] = await check.run(context);
  return outcomes;
}

describe('the content checks on the conform fixture servers', () => {
  it('pass the clean server (every check passes, none skipped)', async () => {
    const outcomes = await conform('conform-clean-server.js');
    const notPassed = Object.entries(outcomes).filter(([, outcome]) => outcome.verdict !== 'pass');
    expect(notPassed).toEqual([]);
    expect(outcomes['progress.monotonic']?.message).toBe('3 progress notifications on 1 call, increasing, none after the response');
  });

  it('fail the lying server on capability honesty and the unknown method', async () => {
    const outcomes = await conform('conform-lying-server.js');
    expect(outcomes['capabilities.honest']).toMatchObject({
      verdict: 'fail',
      message: expect.stringMatching(/^resources\/list \(capability "resources" not advertised\) answered with a result instead of error -32601 \(and 3 more\)$/) as unknown,
    });
    expect(outcomes['jsonrpc.unknown-method']?.verdict).toBe('fail');
    expect(outcomes['tools.input-schema']?.verdict).toBe('pass');
  });

  it('fail the server with a tool without inputSchema on tools.input-schema', async () => {
    const outcomes = await conform('conform-no-input-schema-server.js');
    expect(outcomes['tools.input-schema']).toMatchObject({ verdict: 'fail', message: 'tool "now" has no inputSchema (result.tools[1].inputSchema)' });
    expect(outcomes['capabilities.honest']?.verdict).toBe('pass');
    expect(outcomes['jsonrpc.unknown-method']?.verdict).toBe('pass');
  });
});
