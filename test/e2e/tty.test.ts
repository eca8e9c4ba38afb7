import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { BIN, FIXTURES, ROOT } from '../helpers/run-toolrun.js';

// util-linux `script` gives toolrun a real terminal, so the spinner and colors are exercised.
const hasScript = existsSync('/usr/bin/script');

async function onTerminal(command: string, columns: number | undefined) {
  const marker = newProcessMarker();
  const setup = columns === undefined ? '' : `stty cols ${columns} rows 40; `;
  const result = await execa('script', ['-qec', `${setup}${process.execPath} ${BIN} ${command}`, '/dev/null'], {
    cwd: ROOT,
    reject: false,
    timeout: 30_000,
    env: { ...process.env, ...marker.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined },
  });
  expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  return result;
}

describe.skipIf(!hasScript)('on a terminal', () => {
  it('shows a spinner and colors, then the report (doctor)', async () => {
    const result = await onTerminal(`--config ${join(FIXTURES, 'home.json')} mcp doctor zwave`, 100);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('\u001b[?25l'); // the spinner hid the cursor
    expect(result.stdout).toContain('\u001b[32m✔\u001b[39m initialize');
    expect(result.stdout).toMatch(/Healthy: 0 problems, 0 warnings/);
  });

  it('runs without a spinner when the terminal reports no width', async () => {
    const result = await onTerminal('time get_current_datetime -n 200', 0);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('\u001b[?25l');
    expect(result.stdout).toMatch(/200 ok/);
  });
});
