import { build } from 'esbuild';
import { execa } from 'execa';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';

const ROUNDS = 40;

/**
 * A node script that takes the round's lock at each round's moment (every 25 ms from a start time),
 * printing W or l for each: src/session/holder-lock.ts bundled in, as each `session start` process has it.
 * It lives through every round and a while after, so a round's winner is a live owner for the others.
 */
async function racer(folder: string): Promise<string> {
  const bundle = join(folder, 'holder-lock.mjs');
  await build({ entryPoints: [join(ROOT, 'src', 'session', 'holder-lock.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
  const script = join(folder, 'racer.mjs');
  writeFileSync(
    script,
    `import { acquireLock } from ${JSON.stringify(bundle)};
const [folder, start] = process.argv.slice(2);
let taken = '';
for (let round = 0; round < ${ROUNDS}; round++) {
  while (Date.now() < Number(start) + round * 25) {}
  taken += acquireLock(folder + '/round-' + round + '.lock') ? 'W' : 'l';
}
process.stdout.write(taken);
// Alive a while after its last round: a racer late to it must find the winner alive, not a dead holder's lock.
setTimeout(() => {}, 500);
`,
  );
  return script;
}

/** Four racers through every round: how many took each round's lock. */
async function race(folder: string, script: string): Promise<number[]> {
  const start = Date.now() + 300;
  const runs = await Promise.all(Array.from({ length: 4 }, () => execa(process.execPath, [script, folder, String(start)])));
  return Array.from({ length: ROUNDS }, (_, round) => runs.filter((run) => run.stdout[round] === 'W').length);
}

describe('the session lock (holder-lock.ts)', () => {
  it('goes to exactly one of four processes that take it at the same moment, round after round', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-lock-'));
    // Before the fix, 3 rounds in 40 had two winners: a lock created, then written, was read empty.
    expect(await race(folder, await racer(folder))).toEqual(Array.from({ length: ROUNDS }, () => 1));
    expect(readdirSync(folder).filter((file) => /\.(tmp|takeover)$/.test(file))).toEqual([]);
  });

  it("a dead holder's lock goes to exactly one of four processes that take it over at the same moment", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-lock-'));
    const script = await racer(folder);
    // The pid of a process that has ended: each round's lock is a dead holder's.
    const dead = (await execa(process.execPath, ['-e', '0'])).pid!;
    for (let round = 0; round < ROUNDS; round++) writeFileSync(join(folder, `round-${round}.lock`), String(dead));
    expect(await race(folder, script)).toEqual(Array.from({ length: ROUNDS }, () => 1));
    expect(readdirSync(folder).filter((file) => /\.(tmp|takeover)$/.test(file))).toEqual([]);
  });
});
