import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { ROOT } from '../helpers/run-toolrun.js';
import { LONGEST_FILES, LongestFirst } from '../setup/longest-first.js';

/** A test file as the sequencer sees it, of `size` bytes, with a known duration when `duration` is given. */
interface Fake {
  path: string;
  size: number;
  duration?: number;
}

/** Sorts the fakes with LongestFirst over a vitest context that knows only their sizes and durations. */
async function order(fakes: Fake[]): Promise<string[]> {
  const byKey = new Map(fakes.map((fake) => [`:${fake.path}`, fake]));
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) => {
        const duration = byKey.get(key)?.duration;
        return duration === undefined ? undefined : { duration, failed: false };
      },
      getFileStats: (key: string) => ({ size: byKey.get(key)!.size }),
    },
  } as unknown as Vitest;
  const project = { name: '', config: { sequence: { groupOrder: 0 }, isolate: false } };
  const files = fakes.map((fake) => ({ moduleId: join(ROOT, fake.path), project }) as unknown as TestSpecification);
  const sorted = await new LongestFirst(ctx).sort(files);
  return sorted.map((file) => relative(ROOT, file.moduleId));
}

describe('the order test files start in', () => {
  it('names only files that exist', () => {
    expect(LONGEST_FILES.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });

  it('with no duration known (a fresh clone), starts the listed files first, in the list order, then the others largest first', async () => {
    const fakes = [
      { path: 'test/unit/large.test.ts', size: 90_000 },
      { path: LONGEST_FILES[2]!, size: 100 },
      { path: 'test/unit/small.test.ts', size: 10 },
      { path: LONGEST_FILES[0]!, size: 50 },
    ];
    expect(await order(fakes)).toEqual([LONGEST_FILES[0], LONGEST_FILES[2], 'test/unit/large.test.ts', 'test/unit/small.test.ts']);
  });

  it('with durations known, keeps vitest’s order: the longest first', async () => {
    const fakes = [
      { path: LONGEST_FILES[0]!, size: 50, duration: 1_000 },
      { path: 'test/unit/slow.test.ts', size: 10, duration: 90_000 },
      { path: LONGEST_FILES[1]!, size: 100, duration: 5_000 },
    ];
    expect(await order(fakes)).toEqual(['test/unit/slow.test.ts', LONGEST_FILES[1], LONGEST_FILES[0]]);
  });
});
