import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/run-toolrun.js';

/**
 * action.yml's script, run the way the runner runs the composite step: its `run:` line in bash,
 * with the step's `env:` mapping filled from the inputs (or their defaults), GITHUB_ACTION_PATH and
 * GITHUB_OUTPUT set. toolrun itself is a stand-in that records its argv (the `mcp conform` command
 * is tested on its own; here the script's logic is: arguments, both steps, exit codes, quoting).
 */
interface ActionStep {
  uses?: string;
  run?: string;
  shell?: string;
  id?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface ActionFile {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;
const FAKE_TOOLRUN = join(ROOT, 'test/fixtures/action/fake-toolrun.mjs');
const FAKE_NPM = join(ROOT, 'test/fixtures/action/fake-npm.mjs');

interface ActionRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** argv of each toolrun (and npm) run, in order. */
  runs: string[][];
  outputs: Record<string, string>;
  cwd: string;
}

async function runAction(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  const step = action.runs.steps.find((candidate) => candidate.run !== undefined)!;
  const values = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, inputs[name] ?? input.default ?? '']));
  const stepEnv = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, template]) => [name, template.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_match, input: string) => values[input]!)]),
  );
  const cwd = mkdtempSync(join(tmpdir(), 'toolrun-action-'));
  const log = join(cwd, 'runs.jsonl');
  const output = join(cwd, 'github-output');
  writeFileSync(log, '');
  writeFileSync(output, '');
  const result = await execa('bash', ['-e', '-c', step.run!], {
    cwd,
    reject: false,
    env: { ...stepEnv, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: output, RUNNER_TEMP: cwd, FAKE_TOOLRUN_LOG: log, TOOLRUN_ACTION_BIN: FAKE_TOOLRUN, ...env },
  });
  const runs = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as string[]);
  const outputs: Record<string, string> = {};
  for (const match of readFileSync(output, 'utf8').matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2\n/gm)) outputs[match[1]!] = match[3]!;
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr, runs, outputs, cwd };
}

describe('action.yml', () => {
  it('is a composite action: setup-node, then the one script with every input passed as an environment variable', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual([
      'call-all',
      'calls',
      'config',
      'junit',
      'lint',
      'lint-max-tokens',
      'lint-sarif',
      'node-version',
      'profile',
      'server',
      'snapshot',
      'tests',
      'tests-junit',
      'verify',
      'verify-junit',
      'verify-launch',
    ]);
    // Not required by GitHub: `tests` alone is a run too; the script refuses neither given (below).
    expect(action.inputs.server!.required).toBe(false);
    expect(action.inputs.profile!.default).toBe('toolrun@2');
    expect(action.inputs.junit!.default).toBe('toolrun-conform.xml');
    expect(action.inputs['node-version']!.default).toBe('20');
    expect(action.runs.steps[0]!.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(action.runs.steps[0]!.with!['node-version']).toBe('${{ inputs.node-version }}');
    const step = action.runs.steps[1]!;
    expect(step).toMatchObject({ id: 'toolrun', shell: 'bash', run: 'node "$GITHUB_ACTION_PATH/action/run.mjs"' });
    // No expression inside the shell line (script injection); every input but node-version reaches the script.
    expect(step.run).not.toContain('${{');
    const passed = Object.values(step.env!).map((value) => /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)?.[1]);
    expect(passed.sort()).toEqual([
      'call-all',
      'calls',
      'config',
      'junit',
      'lint',
      'lint-max-tokens',
      'lint-sarif',
      'profile',
      'server',
      'snapshot',
      'tests',
      'tests-junit',
      'verify',
      'verify-junit',
      'verify-launch',
    ]);
    const script = readFileSync(join(ROOT, 'action/run.mjs'), 'utf8');
    for (const name of Object.keys(step.env!)) expect(script).toContain(`env.${name}`);
    for (const [name, output] of Object.entries(action.outputs)) expect(output.value).toBe(`\${{ steps.toolrun.outputs.${name} }}`);
  });
});

describe('the action script, run as the action runs it', () => {
  it('runs conform with the inputs as arguments and passes: exit 0, verdict pass, the JUnit path as output', async () => {
    const run = await runAction({ server: 'everything', config: 'ci/toolrun.json', 'call-all': 'true', calls: 'echo message=hi\n\n# a comment\nadd {"a":1,"b":2}' });
    expect(run.exitCode).toBe(0);
    expect(run.runs).toEqual([
      [
        '--config',
        'ci/toolrun.json',
        'mcp',
        'conform',
        '--profile',
        'toolrun@2',
        '--junit',
        'toolrun-conform.xml',
        '--call',
        'echo message=hi',
        '--call',
        'add {"a":1,"b":2}',
        '--call-all',
        '--',
        'everything',
      ],
    ]);
    expect(run.outputs).toEqual({
      junit: 'toolrun-conform.xml',
      verdict: 'pass',
      'conform-exit-code': '0',
      'diff-exit-code': '',
      'tests-junit': '',
      'tests-exit-code': '',
      'lint-sarif': '',
      'lint-exit-code': '',
      'verify-junit': '',
      'verify-exit-code': '',
    });
    expect(existsSync(join(run.cwd, 'toolrun-conform.xml'))).toBe(true);
    expect(run.stdout).toBe('fake toolrun conform');
    expect(run.stderr).toContain('toolrun: conform passed (exit 0) (verdict: pass, JUnit: toolrun-conform.xml)');
  });

  it('runs the diff too when conform fails, and fails naming the step that failed', async () => {
    const run = await runAction({ server: 'everything', snapshot: 'api.json', profile: 'toolrun@1', junit: 'out/r.xml' }, { FAKE_CONFORM_EXIT: '1' });
    expect(run.exitCode).toBe(1);
    expect(run.runs.map((argv) => argv.slice(0, 2).join(' '))).toEqual(['mcp conform', 'mcp diff']);
    expect(run.runs[1]).toEqual(['mcp', 'diff', '--', 'api.json', 'everything']);
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'conform-exit-code': '1', 'diff-exit-code': '0', junit: 'out/r.xml' });
    expect(run.stderr).toContain('::error title=toolrun::toolrun: conform failed (exit 1); diff against api.json passed (exit 0) (verdict: fail');
  });

  it('lints the committed snapshot offline (or the server), targets and budget as flags, its SARIF as an output', async () => {
    const offline = await runAction({ snapshot: 'api.json', lint: 'openai, gemini', 'lint-max-tokens': '8000' }, { FAKE_LINT_EXIT: '1' });
    expect(offline.runs).toEqual([['mcp', 'lint', '--sarif', 'toolrun-lint.sarif', '--target', 'openai,gemini', '--max-tokens', '8000', '--snapshot=api.json']]);
    expect(offline.exitCode).toBe(1);
    expect(offline.outputs).toMatchObject({ verdict: 'fail', 'lint-exit-code': '1', 'lint-sarif': 'toolrun-lint.sarif', 'conform-exit-code': '' });
    expect(existsSync(join(offline.cwd, 'toolrun-lint.sarif'))).toBe(true);
    expect(offline.stderr).toContain('lint failed (exit 1)');
    const live = await runAction({ server: '--config=evil.json', lint: 'all', 'lint-sarif': 'out.sarif' });
    expect(live.runs.at(-1)).toEqual(['mcp', 'lint', '--sarif', 'out.sarif', '--', '--config=evil.json']);
    expect((await runAction({ lint: 'openai' })).stderr).toContain('is required');
    expect((await runAction({ server: 's', lint: 'openai;rm -rf /' })).stderr).toContain('the `lint` input takes targets such as openai,gemini or all');
    expect((await runAction({ server: 's', lint: 'all', 'lint-max-tokens': 'lots' })).exitCode).toBe(2);
  });

  it('runs test files (toolrun test) with or without a server to conform, their paths after --, their JUnit as an output', async () => {
    const alone = await runAction({ tests: 'tests/smoke.toolrun.yaml\n# a comment\nmore/ --config=evil.json' }, { FAKE_TEST_EXIT: '1' });
    expect(alone.runs).toEqual([['test', '--junit', 'toolrun-tests.xml', '--', 'tests/smoke.toolrun.yaml', 'more/', '--config=evil.json']]);
    expect(alone.exitCode).toBe(1);
    expect(alone.outputs).toMatchObject({ verdict: 'fail', 'tests-exit-code': '1', 'tests-junit': 'toolrun-tests.xml', 'conform-exit-code': '' });
    expect(alone.stderr).toContain('toolrun: tests failed (exit 1) (verdict: fail, JUnit: toolrun-tests.xml)');
    const both = await runAction({ server: 'everything', tests: 'a.toolrun.yaml', 'tests-junit': 'tests.xml' });
    expect(both.runs.map((argv) => (argv[0] === 'test' ? 'test' : argv.slice(0, 2).join(' ')))).toEqual(['mcp conform', 'test']);
    expect(both.outputs).toMatchObject({ verdict: 'pass', 'conform-exit-code': '0', 'tests-exit-code': '0', 'tests-junit': 'tests.xml' });
  });

  it('verifies server.json files and bundles (toolrun mcp verify) after --, --launch only when asked, their JUnit as an output', async () => {
    const alone = await runAction({ verify: 'server.json\n# a comment\ndist/x.mcpb' }, { FAKE_VERIFY_EXIT: '1' });
    expect(alone.runs).toEqual([['mcp', 'verify', '--junit', 'toolrun-verify.xml', '--', 'server.json', 'dist/x.mcpb']]);
    expect(alone.exitCode).toBe(1);
    expect(alone.outputs).toMatchObject({ verdict: 'fail', 'verify-exit-code': '1', 'verify-junit': 'toolrun-verify.xml', 'conform-exit-code': '' });
    expect(alone.stderr).toContain('toolrun: verify failed (exit 1) (verdict: fail, JUnit: toolrun-verify.xml)');
    const launched = await runAction({ verify: '--config=evil.json', 'verify-launch': 'true', 'verify-junit': 'v.xml' });
    expect(launched.runs).toEqual([['mcp', 'verify', '--junit', 'v.xml', '--launch', '--', '--config=evil.json']]);
    expect(launched.outputs).toMatchObject({ verdict: 'pass', 'verify-exit-code': '0', 'verify-junit': 'v.xml' });
    expect((await runAction({ verify: 'server.json', 'verify-launch': 'yes' })).stderr).toContain('the `verify-launch` input must be true or false, not "yes"');
  });

  it('fails on a breaking API change alone', async () => {
    const run = await runAction({ server: 'everything', snapshot: 'api.json' }, { FAKE_DIFF_EXIT: '1' });
    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'conform-exit-code': '0', 'diff-exit-code': '1' });
    expect(run.stderr).toContain('conform passed (exit 0); diff against api.json found a breaking change');
  });

  it('says an unreachable server with its exit code 4, even when the diff fails as well', async () => {
    const run = await runAction({ server: 'https://mcp.example.invalid/mcp', snapshot: 'api.json' }, { FAKE_CONFORM_EXIT: '4', FAKE_DIFF_EXIT: '4' });
    expect(run.exitCode).toBe(4);
    expect(run.outputs.verdict).toBe('unreachable');
    expect(run.stderr).toContain('conform server unreachable (exit 4)');
  });

  it('passes a hostile server name as one argument: no shell ever sees it', async () => {
    const server = `my server "quoted" 'single' $(touch PWNED1) \`touch PWNED2\`; touch PWNED3 && echo $HOME`;
    const run = await runAction({ server: ` ${server}\t`, snapshot: 'snap "x".json', calls: `echo message="$(touch PWNED4)"` });
    expect(run.exitCode).toBe(0);
    expect(run.runs[0]!.at(-1)).toBe(server);
    expect(run.runs[0]).toContain('echo message="$(touch PWNED4)"');
    expect(run.runs[1]).toEqual(['mcp', 'diff', '--', 'snap "x".json', server]);
    for (const file of ['PWNED1', 'PWNED2', 'PWNED3', 'PWNED4']) expect(existsSync(join(run.cwd, file))).toBe(false);
  });

  // Issue #31 item 4: an input is the workflow author's text, but it may come from a matrix or an
  // earlier step's output; an option in it must not change what toolrun runs.
  it('passes the server (and the snapshot) after --: an input that looks like an option is a name, never an option', async () => {
    const run = await runAction({ server: '--config=evil.json', snapshot: '--html=x' });
    expect(run.runs[0]!.slice(-2)).toEqual(['--', '--config=evil.json']);
    expect(run.runs[1]).toEqual(['mcp', 'diff', '--', '--html=x', '--config=evil.json']);
  });

  it('refuses an input with a line break (its line in the log would be a workflow command): exit 2, one line, nothing run', async () => {
    for (const [input, value] of [
      ['server', 'everything\n::stop-commands::pwned'],
      ['config', 'ci.json\r::error::forged'],
      ['junit', 'out.xml\n::add-mask::x'],
      ['snapshot', 'api.json\n::notice::x'],
      ['profile', 'toolrun@1\n##[error]x'],
      ['calls', 'echo message=hi\r::error::forged'],
    ]) {
      const run = await runAction({ server: 'everything', [input!]: value! });
      expect(run.exitCode, input).toBe(2);
      expect(run.runs, input).toEqual([]);
      const what = input === 'calls' ? 'each line of the `calls` input must be one line (it holds a carriage return)' : `the \`${input}\` input must be one line (it holds a line break)`;
      expect(run.stderr.trim(), input).toBe(`::error title=toolrun::toolrun action: ${what}`);
    }
  });

  it('refuses a missing server and a call-all that is not a boolean, with exit 2 and the fix', async () => {
    const missing = await runAction({ server: '  ' });
    expect(missing.exitCode).toBe(2);
    expect(missing.runs).toEqual([]);
    expect(missing.stderr).toContain(
      'the `server` input (a server name of your config, a URL, or a command), the `tests` input (test files) or the `verify` input (server.json or .mcpb files) is required',
    );
    const callAll = await runAction({ server: 'everything', 'call-all': 'yes' });
    expect(callAll.exitCode).toBe(2);
    expect(callAll.stderr).toContain('the `call-all` input must be true or false, not "yes"');
  });

  // toolrun is not on the npm registry (issue #47 item 13): the action installed `toolrun@VERSION` from
  // it, which fails on every runner. It builds the checkout the runner made of it instead.
  it('builds the toolrun of its own checkout (npm ci there, whose prepare builds) when no binary is given, once', async () => {
    /** A fresh checkout of the action, as the runner makes it for `uses: OWNER/toolrun@REF`: nothing built. */
    const checkout = () => {
      const dir = mkdtempSync(join(tmpdir(), 'toolrun-action-checkout-'));
      mkdirSync(join(dir, 'action'));
      copyFileSync(join(ROOT, 'action', 'run.mjs'), join(dir, 'action', 'run.mjs'));
      copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      return dir;
    };
    const dir = checkout();
    const env = { GITHUB_ACTION_PATH: dir, TOOLRUN_ACTION_BIN: '', TOOLRUN_ACTION_NPM: FAKE_NPM };
    const run = await runAction({ server: 'everything' }, env);
    expect(run.exitCode).toBe(0);
    expect(run.runs[0]).toEqual(['npm', 'ci', '--no-audit', '--no-fund', '--loglevel', 'error']);
    expect(run.stderr).toContain('::group::npm ci --no-audit --no-fund --loglevel error');
    // npm ran in the checkout: the toolrun it built there is the one that ran.
    expect(existsSync(join(dir, 'bin', 'toolrun.js'))).toBe(true);
    expect(run.runs[1]!.slice(0, 2)).toEqual(['mcp', 'conform']);
    expect(run.runs[1]!.at(-1)).toBe('everything');
    expect(run.runs.some((argv) => argv.some((arg) => /^toolrun@/.test(arg) && arg !== 'toolrun@2'))).toBe(false);
    // The next step of the job, in the same checkout, finds it built.
    const again = await runAction({ server: 'everything' }, env);
    expect(again.exitCode).toBe(0);
    expect(again.runs.map((argv) => argv.slice(0, 2))).toEqual([['mcp', 'conform']]);
    const broken = await runAction({ server: 'everything' }, { ...env, GITHUB_ACTION_PATH: checkout(), FAKE_NPM_EXIT: '1' });
    expect(broken.exitCode).toBe(3);
    expect(broken.stderr).toMatch(/::error title=toolrun::toolrun action: could not build toolrun in the action's checkout \S+ \(npm ci exit 1\)/);
    expect(broken.runs).toHaveLength(1);
  });
});

describe('the action script with the real toolrun', () => {
  it('a server input `--config=evil.json` names a server: it never runs another config', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-action-real-'));
    const config = join(folder, 'toolrun.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { clean: { command: process.execPath, args: [join(ROOT, 'fixtures', 'servers', 'conform-clean-server.js')] } } }));
    const evil = join(folder, 'evil.json');
    const pwned = join(folder, 'PWNED');
    writeFileSync(evil, JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(pwned)}, '')`] } } }));
    const run = await runAction({ server: `--config=${evil}`, config }, { TOOLRUN_ACTION_BIN: join(ROOT, 'bin', 'toolrun.js') });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`unknown MCP server '--config=${evil}'`);
    expect(existsSync(pwned)).toBe(false);
  });

  it('conforms the clean fixture and diffs it against its own committed snapshot: exit 0, a JUnit file, verdict pass', async () => {
    const server = { command: process.execPath, args: [join(ROOT, 'fixtures', 'servers', 'conform-clean-server.js')] };
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-action-real-'));
    const config = join(folder, 'toolrun.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { clean: server } }));
    const snapshot = await execa(process.execPath, [join(ROOT, 'bin', 'toolrun.js'), '--config', config, 'mcp', 'snapshot', 'clean'], { reject: false });
    expect(snapshot.exitCode).toBe(0);
    writeFileSync(join(folder, 'api.json'), snapshot.stdout);
    const run = await runAction(
      { server: 'clean', config, snapshot: join(folder, 'api.json'), calls: 'echo text=hi', junit: join(folder, 'conform.xml') },
      { TOOLRUN_ACTION_BIN: join(ROOT, 'bin', 'toolrun.js') },
    );
    expect(run.exitCode).toBe(0);
    expect(run.outputs.verdict).toBe('pass');
    const xml = readFileSync(join(folder, 'conform.xml'), 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(25); // toolrun@2: the 24 of toolrun@1 and extensions.apps (skipped)
    expect(xml).not.toContain('<failure');
  });
});
