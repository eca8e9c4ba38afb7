import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectValidJunit } from '../helpers/junit-schemas.js';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { BIN, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir } from '../helpers/temp-config.js';

/** Issue #47 (round 4): what a new user hit in `toolrun test` on real servers. */

describe('toolrun test, round 4 (issue #47)', () => {
  const dir = tempDir();
  const marker = newProcessMarker();
  const config = join(dir, 'toolrun.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      retry: { attempts: 1, baseDelayMs: 0 },
      mcpServers: {
        everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
        asks: fixtureServer('elicit-server.js'),
        down: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
        marks: fixtureServer('pid-file-server.js', { env: { PID_FILE: join(dir, 'marks-started') } }),
        slow: fixtureServer('slow-tool-server.js'),
      },
    }),
  );
  const run = (args: string[], env: Record<string, string | undefined> = {}) => runInProcess(['--config', config, ...args], { cwd: dir, env: { ...marker.env, ...env } });

  afterAll(async () => {
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('item 3: a suite made with --from from a recording of bad-input calls passes against the unchanged server', { timeout: 30_000 }, async () => {
    // A host's session with server-everything, recorded through mcp tap: it lists the tools, then
    // calls with good and bad input (a string for a number, a missing argument, a tool that does not exist).
    const recording = join(dir, 'everything.rec');
    const client = new Client({ name: 'a-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', 'tap', '--record', recording, '--', process.execPath, SERVER_EVERYTHING, 'stdio'],
        env: { ...process.env, ...marker.env } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    await client.listTools();
    const answers = [];
    for (const [name, args] of [
      ['echo', { message: 'hi' }],
      ['get-sum', { a: 'x', b: 1 }],
      ['get-sum', { a: 2 }],
      ['no-such-tool', {}],
      ['get-sum', { a: 2, b: 3 }],
    ] as const)
      answers.push(await client.callTool({ name, arguments: args }));
    await client.close();
    // The server itself refused the three bad calls (isError results): that is what the suite must keep seeing.
    expect(answers.map((answer) => answer.isError === true)).toEqual([false, true, true, true, false]);

    const generated = await run(['test', '--from', recording, '-o', 'recorded.toolrun.yaml', '--server', 'everything']);
    expect(generated.exitCode, generated.stderr).toBe(0);
    const text = readFileSync(join(dir, 'recorded.toolrun.yaml'), 'utf8');
    // validate: false only on the calls toolrun's own check would refuse.
    const steps = text.split('  - name: ').slice(1);
    expect(steps.map((step) => [step.split('\n')[0], step.includes('validate: false')])).toEqual([
      ['"call echo #1"', false],
      ['"call get-sum #1"', true],
      ['"call get-sum #2"', true],
      ['"call no-such-tool #1"', true],
      ['"call get-sum #3"', false],
    ]);
    const result = await run(['test', 'recorded.toolrun.yaml'], { CI: 'true' });
    expect(result.stdout, result.stderr).toMatch(/\n5 passed \(5 tests, [\d.]+ s\)$/);
    expect(result.exitCode).toBe(0);
  });

  it("item 3: validate: false sends the call as written; error: {code} matches the server's own JSON-RPC code, -32042 included", async () => {
    writeFileSync(
      join(dir, 'as-written.toolrun.yaml'),
      [
        'server: everything',
        'tests:',
        '  - name: checked by toolrun',
        '    call: get-sum',
        '    args: { a: x, b: 1 }',
        '    expect: { error: "Invalid parameters" }',
        '  - name: sent to the server',
        '    call: get-sum',
        '    args: { a: x, b: 1 }',
        '    validate: false',
        '    expect: { error: "Input validation error", path: { "$.isError": true } }',
        '  - name: a URL elicitation the server requires',
        '    call: "asks:needs_url"',
        '    expect: { error: { code: -32042, message: "open a URL" } }',
      ].join('\n'),
    );
    const result = await run(['--json', 'test', 'as-written.toolrun.yaml']);
    const tests = JSON.parse(result.stdout).tests as Array<{ name: string; status: string; failures?: unknown[] }>;
    expect(tests.map((test) => [test.name, test.status, test.failures ?? []])).toEqual([
      ['checked by toolrun', 'pass', []],
      ['sent to the server', 'pass', []],
      ['a URL elicitation the server requires', 'pass', []],
    ]);
    expect(result.exitCode).toBe(0);
  });

  it('item 4: a mistyped tool in a file bound to one server asks that server (then the local tools) only', async () => {
    writeFileSync(
      join(dir, 'typo.toolrun.yaml'),
      [
        'server: everything',
        'tests:',
        '  - { name: mistyped, call: ecoh, args: { message: hi } }',
        "  - { name: another server's tool, call: signup }",
        '  - { name: a local tool, call: math_evl, args: { expression: "1+1" } }',
      ].join('\n'),
    );
    const result = await run(['--json', 'test', 'typo.toolrun.yaml']);
    const tests = JSON.parse(result.stdout).tests as Array<{ name: string; status: string; failures: Array<{ message: string }> }>;
    expect(tests.map((test) => [test.name, test.status, test.failures[0]?.message])).toEqual([
      ['mistyped', 'fail', "the step failed: Tool 'everything:ecoh' not found. Did you mean: echo?"],
      ["another server's tool", 'fail', "the step failed: Tool 'everything:signup' not found. Run `toolrun list` to see the available tools."],
      ['a local tool', 'fail', "the step failed: Tool 'everything:math_evl' not found. Did you mean: math_eval?"],
    ]);
    expect(result.exitCode).toBe(1);
    // No other server was started, nor blamed.
    expect(result.stderr).not.toContain("'down'");
    expect(existsSync(join(dir, 'marks-started'))).toBe(false);
  });

  it('item 6: a saved value is typed by the parameter schema, as an environment value is (as exec types ARGS)', async () => {
    writeFileSync(
      join(dir, 'typed.toolrun.yaml'),
      [
        'server: everything',
        'tests:',
        '  - name: save a number',
        '    call: get-structured-content',
        '    args: { location: Chicago }',
        '    save: { temp: "$.structuredContent.temperature" }',
        '  - { name: a saved number into a string parameter, call: echo, args: { message: "${temp}" }, expect: { text: "Echo: 36" } }',
        '  - { name: an environment value into a string parameter, call: echo, args: { message: "${ONE}" }, expect: { text: "Echo: 1" } }',
        '  - { name: both into number parameters, call: get-sum, args: { a: "${temp}", b: "${ONE}" }, expect: { contains: "37" } }',
      ].join('\n'),
    );
    const result = await run(['--json', 'test', 'typed.toolrun.yaml', '--env', 'ONE'], { ONE: '1' });
    const tests = JSON.parse(result.stdout).tests as Array<{ name: string; status: string; failures?: Array<{ message: string }> }>;
    expect(tests.map((test) => [test.name, test.status, test.failures?.[0]?.message])).toEqual([
      ['save a number', 'pass', undefined],
      ['a saved number into a string parameter', 'pass', undefined],
      ['an environment value into a string parameter', 'pass', undefined],
      ['both into number parameters', 'pass', undefined],
    ]);
    expect(result.exitCode).toBe(0);
  });

  it("item 5: --shard splits by file (a file's tests share saved values); a ${NAME} whose saving step did not run says so", async () => {
    mkdirSync(join(dir, 'shards'));
    const files = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    for (const name of files)
      writeFileSync(
        join(dir, 'shards', `${name}.toolrun.yaml`),
        [
          'tests:',
          `  - { name: ${name} first, call: math_eval, args: { expression: "2+2" }, save: { x: "$.result" } }`,
          `  - { name: ${name} second, call: math_eval, args: { expression: "\${x}*10" }, expect: { path: { "$.result": 40 } } }`,
          `  - { name: ${name} third, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 2 } } }`,
        ].join('\n'),
      );
    type Listed = { file: string; name: string; status: string };
    const part = async (shard: string) => {
      const result = await run(['--json', 'test', 'shards', '--shard', shard]);
      return { ...result, tests: JSON.parse(result.stdout).tests as Listed[] };
    };
    const parts = await Promise.all(['1/3', '2/3', '3/3'].map(part));
    expect(parts.map((each) => each.exitCode)).toEqual([0, 0, 0]);
    const filesOf = parts.map((each) => [...new Set(each.tests.map((test) => test.file))]);
    // Every file in one part, whole: its three tests, passing (the second uses what the first saved).
    expect(filesOf.flat().sort()).toEqual(files.map((name) => `shards/${name}.toolrun.yaml`));
    expect(filesOf.map((each) => each.length).sort()).toEqual([1, 2, 2]);
    for (const each of parts) expect(each.tests.every((test) => test.status === 'pass') && each.tests.length === filesOf[parts.indexOf(each)]!.length * 3).toBe(true);
    // More shards than files: the extra ones run nothing, and pass.
    const empty = await part('6/6');
    expect([empty.exitCode, empty.tests, empty.stderr.trim()]).toEqual([0, [], 'shard 6/6 holds no test file: 5 files split 6 ways (shards split by file)']);

    const filtered = await run(['--json', 'test', 'shards/alpha.toolrun.yaml', '--filter', 'second']);
    expect(JSON.parse(filtered.stdout).tests[0].failures[0].message).toBe(
      "${x} has no value: 'alpha first' (line 2), which saves it, did not run (--filter or only: left it out); the step was not sent",
    );
    expect(filtered.exitCode).toBe(1);
  });

  it('item 7: a leftover only: true fails under CI, naming the file and line (--allow-only lets it run)', async () => {
    writeFileSync(
      join(dir, 'focused.toolrun.yaml'),
      [
        'tests:',
        '  - { name: one, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 2 } } }',
        '  - { name: two, call: math_eval, args: { expression: "2+2" }, expect: { path: { "$.result": 4 } }, only: true }',
      ].join('\n'),
    );
    const refused = await run(['test', 'focused.toolrun.yaml'], { CI: 'true' });
    expect([refused.exitCode, refused.stdout, refused.stderr.trim()]).toEqual([
      3,
      '',
      "✖ focused.toolrun.yaml:3:5: test 'two' is marked only: true and CI is set: the other tests would be skipped; remove only:, or pass --allow-only",
    ]);
    for (const [args, env] of [
      [['--allow-only'], { CI: 'true' }],
      [[], { CI: undefined }],
    ] as const) {
      const allowed = await run(['--json', 'test', 'focused.toolrun.yaml', ...args], env);
      expect(JSON.parse(allowed.stdout).summary).toMatchObject({ passed: 1, skipped: 1 });
      expect(allowed.exitCode).toBe(0);
    }
  });

  it('item 14: an unknown server is pointed at where the file names it', async () => {
    const cases: Array<[string, string]> = [
      ['server: nope\ntests:\n  - name: x\n    call: echo\n', '1:9'],
      ['server: everything\ntests:\n  - name: x\n    server: nope\n    call: echo\n', '4:13'],
      ['server: everything\ntests:\n  - name: x\n    call: "nope:echo"\n', '4:11'],
    ];
    for (const [text, place] of cases) {
      writeFileSync(join(dir, 'unknown-server.toolrun.yaml'), text);
      const result = await run(['test', 'unknown-server.toolrun.yaml']);
      expect(result.stderr, text).toMatch(new RegExp(`^✖ unknown-server\\.toolrun\\.yaml:${place}: MCP server 'nope' is not configured \\(configured: everything, asks, down, marks, slow\\)`));
      expect(result.exitCode).toBe(3);
    }
  });

  it('item 14: no "Slow tool" warning for a step with its own timeout or latencyMs; a crash says the server\'s stderr once', async () => {
    const slowConfig = join(dir, 'slow.json');
    writeFileSync(
      slowConfig,
      JSON.stringify({
        slowToolMs: 100,
        retry: { attempts: 1, baseDelayMs: 0 },
        mcpServers: { slow: fixtureServer('slow-tool-server.js'), dies: fixtureServer('exit-mid-call-server.js', { env: { CRASH_AFTER: '0' } }) },
      }),
    );
    writeFileSync(
      join(dir, 'slow.toolrun.yaml'),
      [
        'tests:',
        '  - { name: own timeout, call: "slow:slow_tool", args: { ms: 150 }, timeout: 5000 }',
        '  - { name: own latency, call: "slow:slow_tool", args: { ms: 160 }, expect: { latencyMs: { max: 5000 } } }',
        '  - { name: neither, call: "slow:slow_tool", args: { ms: 170 } }',
        '  - { name: crashes, call: "dies:work" }',
      ].join('\n'),
    );
    const result = await runInProcess(['--config', slowConfig, '--json', 'test', 'slow.toolrun.yaml'], { cwd: dir, env: marker.env });
    // Only the step that set no bound of its own is warned about.
    expect(result.stderr.match(/Slow tool: .*/g)).toEqual([expect.stringMatching(/^Slow tool: slow_tool took \d+ ms \(slowToolMs: 100\)$/)]);
    const tests = JSON.parse(result.stdout).tests as Array<{ name: string; status: string; failures?: Array<{ message: string }> }>;
    expect(tests.map((test) => test.status)).toEqual(['pass', 'pass', 'pass', 'fail']);
    const crash = tests[3]!.failures![0]!.message;
    expect(crash).toMatch(/^the step failed: MCP server 'dies' exited with code 3 during the call to 'work'; its stderr ends: (.+ \/ )?FATAL: out of widgets \(widget pool exhausted\)$/);
    expect(crash.split('out of widgets')).toHaveLength(2);
  });

  it('item 14: a test Ctrl-C cuts short is interrupted in the line, the summary, --json and JUnit', { timeout: 30_000 }, async () => {
    writeFileSync(
      join(dir, 'long.toolrun.yaml'),
      'server: slow\ntests:\n  - { name: quick, call: slow_tool, args: { ms: 1 } }\n  - { name: long, call: slow_tool, args: { ms: 20000 } }\n  - { name: never, call: slow_tool, args: { ms: 1 } }\n',
    );
    const interrupt = async (args: string[], started: (output: string) => boolean) => {
      const child = runToolrun(['--config', config, ...args], { cwd: dir, env: marker.env });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let errors = '';
      child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      await waitFor(() => started(output) || started(errors));
      child.kill('SIGINT');
      return { exitCode: (await child).exitCode, output };
    };
    // The human run: the quick test's line is out, the long one is in flight.
    const human = await interrupt(['test', 'long.toolrun.yaml', '--junit', 'interrupted.xml'], (output) => output.includes('✔ quick'));
    expect(human.exitCode).toBe(130);
    expect(human.output).toMatch(/^✔ quick · \d+ ms\n⊘ long · interrupted after \d+ ms \(Ctrl-C\)\n1 passed, 1 interrupted \(2 tests, [\d.]+ s\)\n$/);
    const junit = readFileSync(join(dir, 'interrupted.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite [^>]*tests="2" failures="0" errors="1" skipped="0"/);
    expect(junit).toMatch(/<testcase [^>]*name="long"[^>]*>\n\s*<error message="interrupted \(Ctrl-C\) after \d+ ms" type="interrupted"\/>/);
    expectValidJunit(join(dir, 'interrupted.xml'));
    // --json prints nothing until the end: the call in flight shows in the session's stderr only with --verbose, so wait for the slow server's start.
    const json = await interrupt(['--verbose', '--json', 'test', 'long.toolrun.yaml'], (output) => /exec slow_tool .*"ms":1\b/.test(output));
    expect(json.exitCode).toBe(130);
    const report = JSON.parse(json.output);
    expect(report.success).toBe(false);
    expect(report.summary).toMatchObject({ passed: 1, failed: 0, interrupted: 1, total: 2 });
    expect(report.tests.map((test: { name: string; status: string }) => [test.name, test.status])).toEqual([
      ['quick', 'pass'],
      ['long', 'interrupted'],
    ]);
  });

  it('item 14: files running side by side name their file on each line', async () => {
    writeFileSync(join(dir, 'side-a.toolrun.yaml'), 'server: everything\ntests:\n  - { name: echo, call: echo, args: { message: hi }, expect: { text: "Echo: hi" } }\n');
    writeFileSync(
      join(dir, 'side-b.toolrun.yaml'),
      'tests:\n  - { name: math, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 2 } } }\n  - { name: wrong, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 3 } } }\n',
    );
    const both = await run(['test', 'side-a.toolrun.yaml', 'side-b.toolrun.yaml']);
    const lines = both.stdout.split('\n').filter((line) => /^[✔✖]/.test(line));
    expect(lines.map((line) => line.replace(/ · \d+ ms$/, '')).sort()).toEqual(['✔ side-a.toolrun.yaml › echo', '✔ side-b.toolrun.yaml › math', '✖ side-b.toolrun.yaml › wrong']);
    expect(both.exitCode).toBe(1);
    // One after another (--jobs 1), lines cannot interleave: the names alone, as for one file.
    const inTurn = await run(['test', 'side-a.toolrun.yaml', 'side-b.toolrun.yaml', '--jobs', '1']);
    expect(inTurn.stdout).toMatch(/^✔ echo · \d+ ms\n✔ math · \d+ ms\n✖ wrong · \d+ ms\n/);
  });
});
