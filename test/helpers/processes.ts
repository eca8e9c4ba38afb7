import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { startTicksOf } from '../../src/process/process-tree.js';
import { runToolrun } from './run-toolrun.js';

/**
 * A fresh environment marker for one test. Every process toolrun starts inherits it, so a test can
 * ask "is anything I started still running?" without confusing itself with other tests' processes.
 */
export function newProcessMarker(): { env: Record<string, string>; alive: () => number[] } {
  const value = randomUUID();
  const needle = Buffer.from(`TOOLRUN_TEST_MARKER=${value}`);
  // A process started before the marker existed cannot carry it: its environment is not read (an
  // environment costs ~3x a stat line, and the suite's machine has hundreds of processes). A second early.
  const notBefore = ticksSinceBoot() - ticksPerSecond();
  return {
    env: { TOOLRUN_TEST_MARKER: value },
    alive: () => {
      const pids: number[] = [];
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
        try {
          const started = startTicksOf(Number(entry));
          if (started === undefined || started < notBefore) continue;
          if (readFileSync(`/proc/${entry}/environ`).includes(needle)) pids.push(Number(entry));
        } catch {
          // Gone while we looked, or not ours to read.
        }
      }
      return pids;
    },
  };
}

let clockTicks: number | undefined;
/** The kernel's clock ticks per second (USER_HZ), in which /proc gives start times; 0 (no filtering) if unknown. */
function ticksPerSecond(): number {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 0;
  } catch {
    clockTicks = 0;
  }
  return clockTicks;
}

function ticksSinceBoot(): number {
  try {
    return Math.floor(Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * ticksPerSecond());
  } catch {
    return 0;
  }
}

/** Waits until no marked process is left (they may take a moment after toolrun exits), up to `ms`. */
export async function waitForNoProcesses(alive: () => number[], ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = alive();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = alive();
  }
  return left;
}

/** Runs toolrun with a process marker and fails the test if anything it started is left running. */
export async function runClean(args: string[], options: Parameters<typeof runToolrun>[1] = {}) {
  const marker = newProcessMarker();
  const result = await runToolrun(args, { ...options, env: { ...options.env, ...marker.env } });
  expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  return result;
}

/** Polls `check` every 25 ms until it holds; throws after `ms`. */
export async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether process `pid` has `path` open (Linux /proc): a reader blocked on a FIFO has got that far. */
export function hasFileOpen(pid: number | undefined, path: string): boolean {
  if (pid === undefined) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
