import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSamplingCommand, SamplingCommandError } from '../../src/sampling/run-sampling-command.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

const request = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 10 };

async function run(script: string, options: { timeoutMs?: number; signal?: AbortSignal; maxReplyBytes?: number } = {}) {
  const marker = newProcessMarker();
  const outcome = await runSamplingCommand(request, {
    words: [process.execPath, join(FIXTURES, 'sampling', script)],
    cwd: process.cwd(),
    env: { ...process.env, ...marker.env },
    timeoutMs: options.timeoutMs ?? 10_000,
    signal: options.signal ?? new AbortController().signal,
    maxReplyBytes: options.maxReplyBytes,
  }).catch((error: unknown) => error);
  return { outcome, left: await waitForNoProcesses(marker.alive) };
}

describe('runSamplingCommand', () => {
  it('a command that hangs is ended at its time limit, with the child it started', async () => {
    // hang.js never ends by itself: the reason is the time limit's, or the test's own timeout fails it.
    const { outcome, left } = await run('hang.js', { timeoutMs: 300 });
    expect(outcome).toBeInstanceOf(SamplingCommandError);
    expect((outcome as SamplingCommandError).reason).toBe('did not answer within 300 ms (ended it)');
    expect(left).toEqual([]);
  });

  it('Ctrl-C (the signal) ends it', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { outcome, left } = await run('hang.js', { signal: controller.signal });
    expect((outcome as SamplingCommandError).reason).toBe('was interrupted (ended it)');
    expect(left).toEqual([]);
  });

  it('output past the cap ends it', async () => {
    const { outcome, left } = await run('flood.js', { maxReplyBytes: 100 * 1024 });
    expect((outcome as SamplingCommandError).reason).toBe('printed more than 100 kB (ended it)');
    expect(left).toEqual([]);
  });

  // Issue #31 item 9: the reply is read to the end of stdout, not for a fixed moment after the exit.
  it('a reply that reaches stdout after the command exited is still the reply', async () => {
    const { outcome, left } = await run('late-reply.js');
    expect(outcome).toMatchObject({ content: { type: 'text', text: 'late reply' } });
    expect(left).toEqual([]);
  });

  it('a command that cannot start says why', async () => {
    const outcome = await runSamplingCommand(request, { words: ['/nonexistent/llm'], cwd: process.cwd(), env: process.env, timeoutMs: 1000, signal: new AbortController().signal }).catch(
      (error: unknown) => error,
    );
    expect((outcome as SamplingCommandError).reason).toBe("could not start: command not found: '/nonexistent/llm' (not on PATH, or the file does not exist)");
  });
});
