import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findDescendantsOfEach, findServerProcesses, SERVER_MARKER_VARIABLE, signalProcess, startTicksOf } from '../../src/process/process-tree.js';
import { waitFor } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-config.js';

const linux = existsSync('/proc/self/stat');
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) signalProcess(pid, 'SIGKILL');
});

/**
 * A root process carrying `marker` that starts a detached, setsid() helper (which writes its pid to
 * a file) and keeps running until killed: the helper is its child and carries the marker.
 */
async function rootWithHelper(marker: string, rootExits: boolean) {
  const pidFile = join(tempDir(), 'helper.pid');
  const helper = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
  const rootCode = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(helper)}], { detached: true, stdio: 'ignore' }).unref(); ${rootExits ? '' : 'setInterval(() => {}, 1000)'}`;
  const root = spawn(process.execPath, ['-e', rootCode], { env: { ...process.env, [SERVER_MARKER_VARIABLE]: marker }, stdio: 'ignore' });
  const rootStart = startTicksOf(root.pid!);
  leftovers.push(root.pid!);
  await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
  const helperPid = Number(readFileSync(pidFile, 'utf8'));
  leftovers.push(helperPid);
  return { root: root.pid!, rootStart, helperPid };
}

describe.runIf(linux)('process-tree: finding what a server started', () => {
  it("finds a helper by parent pid while its parent runs, from the kernel's children lists", async () => {
    const { root, helperPid } = await rootWithHelper('watch-marker', false);
    const found = findDescendantsOfEach([root]).get(root)!;
    expect(found.map((member) => member.pid)).toEqual([helperPid]);
    expect(found[0]!.startTicks).toBe(startTicksOf(helperPid));
  });

  it('finds an orphaned helper by its marker, and passes over processes older than the server (their environment unread)', async () => {
    const { root, rootStart, helperPid } = await rootWithHelper('orphan-marker', true);
    await waitFor(() => startTicksOf(root) === undefined);
    expect(rootStart).toBeTypeOf('number');
    expect(findServerProcesses(root, 'orphan-marker', rootStart).map((member) => member.pid)).toEqual([helperPid]);
    // Told the server started after the helper, the scan does not look at the helper at all.
    expect(findServerProcesses(root, 'orphan-marker', startTicksOf(helperPid)! + 1)).toEqual([]);
    // With no start time known, every process is looked at, as before.
    expect(findServerProcesses(root, 'orphan-marker').map((member) => member.pid)).toEqual([helperPid]);
  });
});
