import { describe, expect, it } from 'vitest';
import { MAX_RUNNING_COMMANDS, SamplingQueue, SamplingQueueError } from '../../src/sampling/sampling-queue.js';

// Issue #31 item 9: a few --sampling-command processes at once, the rest in line, a bounded number in all.
describe('SamplingQueue', () => {
  // A signal of its own per job, as each sampling request has (sampling-for.ts): thirty waiting on one
  // signal would add thirty listeners to it, and Node warns past ten (MaxListenersExceededWarning).
  const never = () => new AbortController().signal;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  it(`runs at most ${MAX_RUNNING_COMMANDS} at once and every job in the order it came`, async () => {
    const queue = new SamplingQueue();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const results = await Promise.all(
      [...Array(30)].map((_, index) =>
        queue.run(async () => {
          order.push(index);
          most = Math.max(most, ++running);
          await tick();
          running--;
          return index;
        }, never()),
      ),
    );
    expect(results).toEqual([...Array(30).keys()]);
    expect(order).toEqual([...Array(30).keys()]);
    expect(most).toBe(MAX_RUNNING_COMMANDS);
  });

  it('a job whose signal aborts while it waits never runs; the others do', async () => {
    const queue = new SamplingQueue({ maxRunning: 1 });
    const ran: string[] = [];
    const job = (name: string) => async () => {
      ran.push(name);
      await tick();
    };
    const withdrawn = new AbortController();
    const first = queue.run(job('first'), never());
    const second = queue.run(job('second'), withdrawn.signal);
    const third = queue.run(job('third'), never());
    withdrawn.abort();
    await expect(second).rejects.toThrow(new SamplingQueueError('was interrupted while waiting for its turn'));
    await Promise.all([first, third]);
    expect(ran).toEqual(['first', 'third']);
  });

  it('past its total, a job is refused at once', async () => {
    const queue = new SamplingQueue({ maxRunning: 2, maxTotal: 3 });
    const jobs = [...Array(5)].map(() => queue.run(async () => 'ran', never()).catch((error: SamplingQueueError) => error));
    const outcomes = await Promise.all(jobs);
    expect(outcomes.slice(0, 3)).toEqual(['ran', 'ran', 'ran']);
    expect(outcomes.slice(3).map((error) => (error as SamplingQueueError).reason)).toEqual([
      "was not run: it already ran 3 times in this command (toolrun's limit)",
      "was not run: it already ran 3 times in this command (toolrun's limit)",
    ]);
  });
});
