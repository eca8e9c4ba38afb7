import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { SERVER_EVERYTHING, tempDir } from '../helpers/temp-config.js';

/** Issue #48 item 5: a test file from a pull request is untrusted input. */

describe('toolrun test on an untrusted test file (issue #48 item 5)', () => {
  const dir = tempDir();
  const marker = newProcessMarker();
  const config = join(dir, 'toolrun.config.json');
  writeFileSync(config, JSON.stringify({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } }));
  const run = (args: string[], env: Record<string, string | undefined> = {}) => runInProcess(['--config', config, ...args], { cwd: dir, env: { ...marker.env, ...env } });

  afterAll(async () => {
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('${NAME} reads only the variables env: [NAME] or --env NAME allows; any other is refused before a server starts', async () => {
    // The pull request's file echoes the CI's cloud key into a request it could send anywhere.
    writeFileSync(join(dir, 'steal.toolrun.yaml'), 'server: everything\ntests:\n  - name: steal\n    call: echo\n    args: { message: "key ${CLOUD_KEY}" }\n    expect: { text: "Echo: key k-1" }\n');
    const refused = await run(['test', 'steal.toolrun.yaml'], { CLOUD_KEY: 'k-1' });
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      "✖ steal.toolrun.yaml:5:22: ${CLOUD_KEY} is not saved by an earlier step and this file may not read it from the environment: list it in the file's top-level env: [CLOUD_KEY] or pass --env CLOUD_KEY",
    ]);
    expect(refused.stdout).toBe('');
    expect(refused.exitCode).toBe(3);
    // Allowed on the command line, or by the file itself: the value is sent.
    const allowed = await run(['test', 'steal.toolrun.yaml', '--env', 'CLOUD_KEY'], { CLOUD_KEY: 'k-1' });
    expect(allowed.exitCode).toBe(0);
    writeFileSync(
      join(dir, 'listed.toolrun.yaml'),
      'server: everything\nenv: [CLOUD_KEY]\ntests:\n  - { name: listed, call: echo, args: { message: "${CLOUD_KEY}" }, expect: { text: "Echo: k-1" } }\n',
    );
    expect((await run(['test', 'listed.toolrun.yaml'], { CLOUD_KEY: 'k-1' })).exitCode).toBe(0);
    // A bad env: list or --env name is a one-line refusal too.
    writeFileSync(join(dir, 'bad-env.toolrun.yaml'), 'server: everything\nenv: CLOUD_KEY\ntests:\n  - { name: a, call: echo, args: { message: hi } }\n');
    const badList = await run(['test', 'bad-env.toolrun.yaml']);
    expect(badList.stderr.trimEnd().split('\n')).toEqual(['✖ bad-env.toolrun.yaml:2:6: `env:` lists the environment variables ${NAME} may read, as names: env: [API_URL, GITHUB_TOKEN]']);
    expect(badList.exitCode).toBe(3);
    const badFlag = await run(['test', 'listed.toolrun.yaml', '--env', '$X']);
    expect(badFlag.exitCode).toBe(2);
    expect(badFlag.stderr).toContain("takes an environment variable's name (GITHUB_TOKEN), not '$X'.");
  });

  it('a regex from the file (matches:) or a schema (pattern) that backtracks is stopped at its time limit and fails the test; the run goes on', async () => {
    // (.*a){30} on 28 a's and a long tail would try C(n, 30) ways: hours on one thread, deaf to SIGTERM.
    const long = `${'a'.repeat(28)} ${'b'.repeat(3000)}`;
    writeFileSync(
      join(dir, 'redos.toolrun.yaml'),
      [
        'tests:',
        `  - { name: matches, server: everything, call: echo, args: { message: "${long}" }, expect: { matches: "(.*a){30}" } }`,
        `  - { name: path matches, server: everything, call: echo, args: { message: "${long}" }, expect: { path: { "$.content[0].text": { matches: "(.*a){30}" } } } }`,
        `  - { name: schema pattern, call: echo, args: { message: "${long}" }, expect: { schema: { properties: { echo: { properties: { message: { pattern: "(.*a){30}" } } } } } } }`,
        `  - { name: step timeout, server: everything, call: echo, timeout: 300, args: { message: "${long}" }, expect: { matches: "(.*a){30}" } }`,
        '  - { name: after, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 2 } } }',
      ].join('\n'),
    );
    const result = await run(['--json', 'test', 'redos.toolrun.yaml']);
    const tests = JSON.parse(result.stdout).tests as Array<{ name: string; status: string; failures?: Array<{ message: string }> }>;
    const stopped = `the regular expression /(.*a){30}/ ran over 1000 ms on ${long.length + 6} characters and was stopped (it backtracks: make it simpler)`;
    expect(tests.map((test) => [test.name, test.status, test.failures?.[0]?.message])).toEqual([
      ['matches', 'fail', stopped],
      ['path matches', 'fail', stopped],
      ['schema pattern', 'fail', stopped.replace(`${long.length + 6} characters`, `${long.length} characters`)],
      ['step timeout', 'fail', stopped.replace('1000 ms', '300 ms')],
      ['after', 'pass', undefined],
    ]);
    expect(result.exitCode).toBe(1);
  });

  it('known secrets are masked before a snapshot is written: an echoed ${TOKEN}, a server printing its environment', async () => {
    const withEnv = join(dir, 'env-config.json');
    writeFileSync(withEnv, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'], env: { SERVICE_PASSWORD: '${SERVICE_PASSWORD}' } } } }));
    writeFileSync(
      join(dir, 'echo-secret.toolrun.yaml'),
      [
        'server: everything',
        'env: [API_TOKEN]',
        'tests:',
        '  - { name: echo, call: echo, args: { message: "${API_TOKEN}" }, expect: { snapshot: true } }',
        '  - { name: environment, call: get-env, expect: { snapshot: true } }',
      ].join('\n'),
    );
    const env = { ...marker.env, API_TOKEN: 'tok-from-the-ci-1234', SERVICE_PASSWORD: 'pw-of-the-service-5678' };
    const first = await runInProcess(['--config', withEnv, 'test', 'echo-secret.toolrun.yaml'], { cwd: dir, env });
    expect(first.exitCode).toBe(0);
    const written = readFileSync(join(dir, '__snapshots__', 'echo-secret.snap.json'), 'utf8');
    expect(written).not.toContain('tok-from-the-ci-1234');
    expect(written).not.toContain('pw-of-the-service-5678');
    expect(JSON.parse(written).echo.content[0].text).toBe('Echo: ***');
    expect(JSON.parse(JSON.parse(written).environment.content[0].text).SERVICE_PASSWORD).toBe('***');
    // The next run masks the same way before it compares, so the masked snapshot matches.
    const again = await runInProcess(['--config', withEnv, 'test', 'echo-secret.toolrun.yaml', '--filter', 'echo'], { cwd: dir, env: { ...env, CI: 'true' } });
    expect(again.exitCode).toBe(0);
  });

  it('SIGTERM ends a run whose regexes backtrack (before, one (.*a){30} held it, deaf to the signal)', async () => {
    const long = `${'a'.repeat(28)} ${'b'.repeat(3000)}`;
    const steps = Array.from({ length: 30 }, (_, index) => `  - { name: slow ${index + 1}, call: echo, args: { message: "${long}" }, expect: { matches: "(.*a){30}" } }`);
    writeFileSync(join(dir, 'many.toolrun.yaml'), ['tests:', ...steps].join('\n'));
    const run = runToolrun(['--config', config, 'test', 'many.toolrun.yaml'], { cwd: dir, env: marker.env });
    let stdout = '';
    run.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await waitFor(() => stdout.includes('slow 1'));
    } finally {
      run.kill('SIGTERM');
    }
    const result = await run;
    expect([result.exitCode, result.signal, result.stderr]).toEqual([143, undefined, '✖ interrupted (SIGTERM); stopping']);
    expect(stdout).not.toContain('slow 30');
  });
});
