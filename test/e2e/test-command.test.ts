import { execa } from 'execa';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidJunit } from '../helpers/junit-schemas.js';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir } from '../helpers/temp-config.js';

/** Issue #33: `toolrun test` files, run as a user runs them, against real servers. */

const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** One suite, five steps: it must pass unchanged on every server below (`--server` picks one). */
const SUITE = `# the issue's suite: echo, get-sum, get-structured-content with schema and path, a refused argument
server: everything
tests:
  - name: echo says hello
    call: echo
    args: { message: hi }
    expect:
      text: "Echo: hi"
  - name: sum
    call: get-sum
    args: { a: 2, b: 3 }
    expect: { contains: "5", latencyMs: { max: 10000 } }
  - name: structured result
    call: get-structured-content
    args: { location: Chicago }
    expect:
      schema: { type: object, required: [temperature] }
      path: { "$.structuredContent.temperature": { type: number, gte: -50 } }
    save: { temp: "$.structuredContent.temperature" }
  - name: a saved value in a later step
    call: echo
    args: { message: "t=\${temp}" }
    expect: { text: "Echo: t=36" }
  - name: refuses a bad argument
    call: get-sum
    args: { a: x, b: 1 }
    expect: { error: true }
  - name: a local tool
    call: math_eval
    args: { expression: "2^10" }
    expect: { path: { "$.result": 1024 } }
`;

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('toolrun test (issue #33)', () => {
  const dir = tempDir();
  const marker = newProcessMarker();
  const config = join(dir, 'toolrun.config.json');
  let http: ReturnType<typeof execa> | undefined;
  const run = (args: string[], env: Record<string, string | undefined> = {}) => runInProcess(['--config', config, ...args], { cwd: dir, env: { ...marker.env, ...env } });

  beforeAll(async () => {
    const port = await freePort();
    http = execa(process.execPath, [SERVER_EVERYTHING, 'streamableHttp'], { env: { PORT: String(port), ...marker.env }, reject: false, stdin: 'ignore', buffer: false });
    writeFileSync(
      config,
      JSON.stringify({
        retry: { attempts: 1, baseDelayMs: 0 },
        mcpServers: {
          everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
          everythingHttp: { url: `http://127.0.0.1:${port}/mcp` },
          modern: fixtureServer('v2-server.js', { env: { EVERYTHING_TOOLS: '1' } }),
          slow: fixtureServer('slow-tool-server.js'),
          dies: fixtureServer('exit-mid-call-server.js', { env: { CRASH_AFTER: '1' } }),
          fs: { command: process.execPath, args: [FILESYSTEM, dir] },
          asks: fixtureServer('elicit-server.js'),
          marks: fixtureServer('pid-file-server.js', { env: { PID_FILE: join(dir, 'teardown-ran') } }),
          samples: fixtureServer('sampling-server.js'),
        },
      }),
    );
    writeFileSync(join(dir, 'suite.toolrun.yaml'), SUITE);
    // server-everything over HTTP answers once it listens: until then a connection is refused.
    for (let tries = 0; tries < 200 && !(await canConnect(port)); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(async () => {
    http?.kill();
    await runInProcess(['session', 'stop', '--all'], { env: marker.env });
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('the same file passes over stdio, over Streamable HTTP, and on a 2026-07-28 server', { timeout: 60_000 }, async () => {
    for (const server of ['everything', 'everythingHttp', 'modern']) {
      const result = await run(['test', 'suite.toolrun.yaml', '--server', server]);
      expect(result.stdout, `${server}\n${result.stderr}`).toMatch(/^✔ echo says hello · \d+ ms\n✔ sum · \d+ ms\n✔ structured result/);
      expect(result.stdout.split('\n').at(-1)).toMatch(/^6 passed \(6 tests, [\d.]+ s\)$/);
      expect(result.exitCode).toBe(0);
    }
    // The modern fixture speaks 2026-07-28, server-everything the 2025 family: both eras ran the file.
    const eras = JSON.parse((await run(['--json', 'mcp', 'list', '--check'])).stdout).servers as Array<{ name: string; protocol_version: string }>;
    expect(eras.find((server) => server.name === 'modern')?.protocol_version).toBe('2026-07-28');
    expect(eras.find((server) => server.name === 'everything')?.protocol_version).toBe('2025-11-25');
  });

  it('a failing expectation names the test, its place, the JSON path, expected and actual (exit 1); --json and --junit agree', async () => {
    writeFileSync(
      join(dir, 'wrong.toolrun.yaml'),
      `server: everything\ntests:\n  - name: wrong sum\n    call: get-sum\n    args: { a: 2, b: 3 }\n    expect:\n      path: { "$.content[0].text": "The sum of 2 and 3 is 6." }\n  - name: right echo\n    call: echo\n    args: { message: ok }\n    expect: { text: "Echo: ok" }\n`,
    );
    const result = await run(['test', 'wrong.toolrun.yaml', '--junit', 'report.xml', '--html', 'report.html']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout.split('\n').slice(0, 6)).toEqual([
      expect.stringMatching(/^✖ wrong sum · \d+ ms$/),
      '    at wrong.toolrun.yaml:3:5',
      '    path $.content[0].text: expected "The sum of 2 and 3 is 6.", got "The sum of 2 and 3 is 5."',
      '      expected: "The sum of 2 and 3 is 6."',
      '      actual:   "The sum of 2 and 3 is 5."',
      '    request: {"call":"everything:get-sum","args":{"a":2,"b":3}}',
    ]);
    expect(result.stdout).toMatch(/\n1 passed, 1 failed \(2 tests, [\d.]+ s\)$/);
    const json = JSON.parse((await run(['--json', 'test', 'wrong.toolrun.yaml'])).stdout);
    expect(json.tests[0]).toMatchObject({
      name: 'wrong sum',
      status: 'fail',
      line: 3,
      failures: [{ matcher: 'path', path: '$.content[0].text', expected: 'The sum of 2 and 3 is 6.', actual: 'The sum of 2 and 3 is 5.' }],
    });
    const junit = readFileSync(join(dir, 'report.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="wrong.toolrun.yaml"');
    expect(junit).toMatch(/tests="2" failures="1"/);
    expectValidJunit(join(dir, 'report.xml'));
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(page).toContain('✖ failed');
    expect(page).toContain('path $.content[0].text: expected &quot;The sum of 2 and 3 is 6.&quot;');
    // In GitHub Actions the failure is an annotation on the test's line (stderr: stdout stays results).
    const inActions = await run(['test', 'wrong.toolrun.yaml'], { GITHUB_ACTIONS: 'true' });
    expect(inActions.stderr).toContain('::error file=wrong.toolrun.yaml,line=3,col=5,title=toolrun test%3A wrong sum::path $.content[0].text: expected');
  });

  it('a bad file is exit 3 naming file, line and column, before any server starts', async () => {
    const pids = join(dir, 'starts');
    writeFileSync(join(dir, 'counting.json'), JSON.stringify({ mcpServers: { p: fixtureServer('pid-file-server.js', { env: { PID_FILE: pids } }) } }));
    const cases: Array<[string, string]> = [
      ['tests:\n  - name: x\n    call: whoami\n    args: { a: [1, 2 }\n', /^✖ bad\.toolrun\.yaml:4:\d+: not valid YAML or JSON: /.source],
      ['server: p\ntests:\n  - name: x\n    call: whoami\n    expect: { txt: hi }\n', '^✖ bad\\.toolrun\\.yaml:5:15: unknown matcher "txt"; matchers are text, contains'],
      ['server: p\ntests:\n  - name: x\n    call: whoami\n    expect: { path: { "$.content[": 1 } }\n', '^✖ bad\\.toolrun\\.yaml:5:23: JSONPath "\\$\\.content\\[" does not parse: '],
      ['server: p\ntests:\n  - name: x\n    call: whoami\n    args: { id: "${never_saved}" }\n', '^✖ bad\\.toolrun\\.yaml:5:17: \\$\\{never_saved\\} is not saved by an earlier step'],
      ['server: nope\ntests:\n  - name: x\n    call: whoami\n', "^✖ bad\\.toolrun\\.yaml:1:9: MCP server 'nope' is not configured \\(configured: p\\)"],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, 'bad.toolrun.yaml'), text);
      const result = await runInProcess(['--config', join(dir, 'counting.json'), 'test', 'bad.toolrun.yaml'], { cwd: dir });
      expect(result.stderr.replace(`${dir}/`, ''), text).toMatch(new RegExp(message));
      expect(result.exitCode).toBe(3);
    }
    expect(existsSync(pids)).toBe(false);
  });

  it('snapshots: written on the first run, compared after, refused missing under CI, rewritten with --update', async () => {
    writeFileSync(join(dir, 'snap.toolrun.yaml'), 'server: everything\ntests:\n  - name: links\n    call: get-resource-links\n    args: { count: 2 }\n    expect: { snapshot: true }\n');
    const snapshots = join(dir, '__snapshots__', 'snap.snap.json');
    expect((await run(['test', 'snap.toolrun.yaml'], { CI: 'true' })).stdout).toContain('no snapshot for this test');
    expect(existsSync(snapshots)).toBe(false);
    const first = await run(['test', 'snap.toolrun.yaml']);
    expect(first.stdout).toMatch(/^✔ links · \d+ ms · snapshot written\n/);
    expect(JSON.parse(readFileSync(snapshots, 'utf8')).links.content).toHaveLength(3);
    expect((await run(['test', 'snap.toolrun.yaml'], { CI: 'true' })).exitCode).toBe(0);
    writeFileSync(join(dir, 'snap.toolrun.yaml'), 'server: everything\ntests:\n  - name: links\n    call: get-resource-links\n    args: { count: 3 }\n    expect: { snapshot: true }\n');
    const changed = await run(['test', 'snap.toolrun.yaml']);
    expect(changed.exitCode).toBe(1);
    expect(changed.stdout).toContain('    snapshot content[3]: differs from the snapshot at content[3]');
    expect((await run(['test', 'snap.toolrun.yaml', '--update'])).exitCode).toBe(0);
    expect((await run(['test', 'snap.toolrun.yaml'])).exitCode).toBe(0);
  });

  it('a secret from the environment in args is masked in the failure, --json and JUnit; a linked __snapshots__ is refused', async () => {
    writeFileSync(join(dir, 'secret.toolrun.yaml'), 'server: everything\nenv: [API_TOKEN]\ntests:\n  - { name: leaks, call: echo, args: { message: "${API_TOKEN}" }, expect: { text: nope } }\n');
    const env = { API_TOKEN: 'tok-very-secret-value-123' };
    const shown = await run(['test', 'secret.toolrun.yaml', '--junit', 'secret.xml'], env);
    expect(shown.exitCode).toBe(1);
    expect(shown.stdout).toContain('request: {"call":"everything:echo","args":{"message":"');
    expect(shown.stdout + readFileSync(join(dir, 'secret.xml'), 'utf8') + (await run(['--json', 'test', 'secret.toolrun.yaml'], env)).stdout).not.toContain('tok-very-secret-value-123');
    const linked = tempDir();
    symlinkSync(tempDir(), join(linked, '__snapshots__'));
    writeFileSync(join(linked, 'linked.toolrun.yaml'), 'server: everything\ntests:\n  - { name: a, call: echo, args: { message: hi }, expect: { snapshot: true } }\n');
    const refused = await runInProcess(['--config', config, 'test', 'linked.toolrun.yaml'], { cwd: linked });
    expect(refused.stderr).toContain('__snapshots__ is a symbolic link; snapshots are read and written only in a real folder beside the test file');
    expect(refused.exitCode).toBe(3);
  });

  it('--shard I/N: the parts are the whole suite, no test twice; --filter and --bail', async () => {
    const names = async (args: string[]) => (JSON.parse((await run(['--json', 'test', 'suite.toolrun.yaml', ...args])).stdout).tests as Array<{ name: string }>).map((test) => test.name);
    const all = await names([]);
    const parts = await Promise.all([names(['--shard', '1/3']), names(['--shard', '2/3']), names(['--shard', '3/3'])]);
    expect(parts.flat().sort()).toEqual([...all].sort());
    // Shards split by file: the one file's tests are all in one part (test-command-round4 splits a folder).
    expect(parts.filter((part) => part.length > 0)).toEqual([all]);
    expect(await names(['--filter', 'sum'])).toEqual(['sum']);
    const badShard = await run(['test', 'suite.toolrun.yaml', '--shard', '4/3']);
    expect(badShard.stderr).toContain("option '--shard <i/n>' argument '4/3' is invalid. takes I/N with 1 ≤ I ≤ N");
    expect(badShard.exitCode).toBe(2);
    const bail = await run(['--json', 'test', 'wrong.toolrun.yaml', 'suite.toolrun.yaml', '--bail', '--jobs', '1']);
    // Files run in path order (suite, then wrong): the test after the failure is skipped, saying why.
    expect(JSON.parse(bail.stdout).summary).toMatchObject({ passed: 6, failed: 1, skipped: 1 });
    expect(JSON.parse(bail.stdout).tests.at(-1)).toMatchObject({ name: 'right echo', status: 'skip', skip_reason: 'not run: an earlier test failed (--bail)' });
  });

  it('a hung call ends at its timeout and the rest run; a server that dies fails its test with the cause and is started again', { timeout: 30_000 }, async () => {
    writeFileSync(
      join(dir, 'faults.toolrun.yaml'),
      [
        'tests:',
        '  - { name: hangs, call: "slow:slow_tool", args: { ms: 20000 }, timeout: 500 }',
        '  - { name: after the hang, call: "slow:slow_tool", args: { ms: 1 } }',
        '  - { name: works, call: "dies:work" }',
        '  - { name: dies mid-call, call: "dies:work" }',
        '  - { name: started again, call: "dies:work" }',
      ].join('\n'),
    );
    const result = await run(['--json', 'test', 'faults.toolrun.yaml']);
    const tests = JSON.parse(result.stdout).tests as Array<{ name: string; status: string; failures?: Array<{ message: string }> }>;
    expect(tests.map((test) => [test.name, test.status])).toEqual([
      ['hangs', 'fail'],
      ['after the hang', 'pass'],
      ['works', 'pass'],
      ['dies mid-call', 'fail'],
      ['started again', 'pass'],
    ]);
    expect(tests[0]!.failures![0]!.message).toContain('timed out after 500 ms');
    expect(tests[3]!.failures![0]!.message).toContain('out of widgets');
  });

  it('a recording made through mcp tap of server-filesystem becomes a suite that passes 20 runs out of 20', { timeout: 90_000 }, async () => {
    writeFileSync(join(dir, 'notes.txt'), 'hello from a file\n');
    const recording = join(dir, 'fs.rec');
    const tapped = join(dir, 'tapped.json');
    writeFileSync(
      tapped,
      JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [join(ROOT, 'bin/toolrun.js'), 'mcp', 'tap', '--record', recording, '--', process.execPath, FILESYSTEM, dir] } } }),
    );
    const session = await runToolrun(['--config', tapped, '--no-session', 'shell'], {
      cwd: dir,
      env: marker.env,
      stdin: 'pipe',
      input: 'fs:read_text_file path=notes.txt\nfs:list_allowed_directories\nfs:get_file_info path=notes.txt\nfs:read_text_file path=missing.txt\n.save saved.toolrun.yaml\n',
    });
    // The last call (a missing file) fails, as recorded: its test expects that error.
    expect(session.stdout, session.stderr).toContain('hello from a file');
    const generated = await run(['test', '--from', recording, '-o', 'fs.toolrun.yaml', '--server', 'fs']);
    expect(generated.stdout).toMatch(/^✔ wrote 4 tests for server 'fs' to fs\.toolrun\.yaml and their snapshots to __snapshots__\/fs\.snap\.json; run: toolrun test fs\.toolrun\.yaml$/);
    const text = readFileSync(join(dir, 'fs.toolrun.yaml'), 'utf8');
    expect(text).toContain('call: read_text_file');
    // Twenty runs through a session holder, as a developer's loop would run them.
    expect((await run(['session', 'start', 'fs'])).exitCode).toBe(0);
    const outcomes = [];
    for (let i = 0; i < 20; i++) outcomes.push((await run(['test', 'fs.toolrun.yaml'], { CI: 'true' })).exitCode);
    expect(outcomes).toEqual(Array(20).fill(0));
    // The shell's .save wrote the same calls as a test file (SERVER:TOOL each), which passes too.
    expect(session.stderr).toContain('✔ saved 4 calls as tests in saved.toolrun.yaml (snapshots: __snapshots__/saved.snap.json); run: toolrun test saved.toolrun.yaml');
    const saved = await run(['--json', 'test', 'saved.toolrun.yaml'], { CI: 'true' });
    expect(JSON.parse(saved.stdout).summary).toMatchObject({ passed: 4, failed: 0 });
    await run(['session', 'stop']);
  });

  it('servers that ask back: each step answers with its own answers:, sampling: and roots:', async () => {
    writeFileSync(
      join(dir, 'asks.toolrun.yaml'),
      [
        'tests:',
        '  - name: two elicitation rounds',
        '    call: asks:two_rounds',
        '    answers: [{ name: Ada }, { action: accept, content: { confirm: true } }]',
        '    expect: { json: [{ action: accept, content: { name: Ada } }, { action: accept, content: { confirm: true } }] }',
        '  - name: without answers, declined',
        '    call: asks:two_rounds',
        '    expect: { contains: decline }',
        '  - name: sampling replies',
        '    call: samples:sample',
        '    args: { times: 2 }',
        '    sampling: [first reply, second reply]',
        '    expect: { contains: [first reply, second reply] }',
        '  - name: roots',
        '    call: samples:roots',
        '    roots: [.]',
        `    expect: { contains: ${JSON.stringify(JSON.stringify(`file://${dir}`).slice(1, -1))} }`,
      ].join('\n'),
    );
    const result = await run(['test', 'asks.toolrun.yaml']);
    expect(result.stdout, result.stderr).toMatch(/✔ two elicitation rounds.*\n✔ without answers, declined.*\n✔ sampling replies.*\n✔ roots/);
    expect(result.exitCode).toBe(0);
  });

  it("setup and teardown steps run around a file's tests (teardown even after a failure); a failed setup fails every test", async () => {
    writeFileSync(
      join(dir, 'around.toolrun.yaml'),
      [
        'server: everything',
        'setup:',
        '  - { call: echo, args: { message: ready }, save: { word: "$.content[0].text" } }',
        'tests:',
        '  - { name: uses the setup, call: echo, args: { message: "${word}" }, expect: { text: "Echo: Echo: ready" } }',
        '  - { name: fails, call: echo, args: { message: x }, expect: { text: nope } }',
        'teardown:',
        '  - { call: "marks:whoami" }',
      ].join('\n'),
    );
    // The marks server logs each call it gets: its start alone proves nothing (mcp list --check in
    // another test of this file starts it too), the call the teardown step makes does.
    const calls = join(dir, 'teardown-ran.calls');
    const callsBefore = existsSync(calls) ? readFileSync(calls, 'utf8') : '';
    const json = JSON.parse((await run(['--json', 'test', 'around.toolrun.yaml'])).stdout);
    expect(json.tests.map((test: { name: string; status: string }) => [test.name, test.status])).toEqual([
      ['uses the setup', 'pass'],
      ['fails', 'fail'],
    ]);
    // The teardown step ran after the failure: marks:whoami was called, once.
    expect(readFileSync(calls, 'utf8').slice(callsBefore.length)).toBe('whoami\n');
    writeFileSync(
      join(dir, 'broken-setup.toolrun.yaml'),
      'server: everything\nsetup:\n  - { call: echo, args: { message: x }, expect: { text: nope } }\ntests:\n  - { name: a, call: echo, args: { message: y } }\n',
    );
    const broken = JSON.parse((await run(['--json', 'test', 'broken-setup.toolrun.yaml'])).stdout);
    expect(broken.tests[0]).toMatchObject({ name: 'a', status: 'fail', failures: [{ matcher: 'setup', message: "setup step 'setup 1' (line 3) failed: the text differs" }] });
  });

  it('--watch runs again when a test file changes, until Ctrl-C (exit 130)', { timeout: 30_000 }, async () => {
    writeFileSync(join(dir, 'watched.toolrun.yaml'), 'tests:\n  - { name: math, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 2 } } }\n');
    const child = runToolrun(['--config', config, 'test', 'watched.toolrun.yaml', '--watch'], { cwd: dir, env: marker.env });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    await waitFor(() => errors.includes('watching 2 files for changes; Ctrl-C ends'));
    expect(output).toMatch(/^✔ math · \d+ ms\n1 passed/);
    writeFileSync(join(dir, 'watched.toolrun.yaml'), 'tests:\n  - { name: math, call: math_eval, args: { expression: "1+1" }, expect: { path: { "$.result": 3 } } }\n');
    await waitFor(() => output.includes('✖ math'));
    await waitFor(() => errors.split('watching 2 files').length === 3);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
  });

  it('Ctrl-C mid-suite: exit 130, the JUnit of what ran is written, nothing left running', { timeout: 30_000 }, async () => {
    writeFileSync(join(dir, 'long.toolrun.yaml'), 'server: slow\ntests:\n  - { name: quick, call: slow_tool, args: { ms: 1 } }\n  - { name: long, call: slow_tool, args: { ms: 20000 } }\n');
    const child = runToolrun(['--config', config, 'test', 'long.toolrun.yaml', '--junit', 'partial.xml'], { cwd: dir, env: marker.env });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes('✔ quick'));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    const junit = readFileSync(join(dir, 'partial.xml'), 'utf8');
    expect(junit).toContain('name="quick"');
    // The test Ctrl-C cut short is there as interrupted (test-command-round4 checks every report).
    expect(junit).toMatch(/name="long"[^>]*>\s*<error message="interrupted \(Ctrl-C\) after \d+ ms" type="interrupted"\/>/);
  });
});
