import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';
import { withoutSlowToolLine } from '../helpers/slow-tool-line.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

const localTools = join(FIXTURES, 'configs', 'local-tools.json');

describe('toolrun exec (built binary)', () => {
  it('prints the time with no setup, result on stdout, footer on stderr', async () => {
    const result = await runInProcess(['exec', 'get_current_datetime']);
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.datetime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // No config, so the default slowToolMs: a busy machine's slow-tool warning is not what this checks.
    expect(withoutSlowToolLine(result.stderr)).toMatch(/^✔ get_current_datetime · builtin · [\d.]+ ms$/);
  });

  it('prints the --json envelope as one line', async () => {
    // A busy machine can take a second to start math_eval's worker: no slow-tool warning for that here.
    const config = writeTempConfig({ slowToolMs: 60_000 });
    const result = await runInProcess(['--config', config, '--json', 'exec', 'math_eval', 'expression=2^10 / 4']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')).toHaveLength(1);
    const envelope = JSON.parse(result.stdout);
    expect(envelope).toEqual({ success: true, result: { result: 256 }, tool_name: 'math_eval', execution_time_ms: expect.any(Number), source: 'builtin' });
    expect(result.stderr).toBe('');
  });

  it('accepts global options after the command', async () => {
    const result = await runInProcess(['exec', 'math_eval', 'expression=1+1', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: { result: 2 } });
  });

  it('exits 2 for an unknown tool, suggesting names, with a JSON envelope', async () => {
    const human = await runInProcess(['exec', 'math_evl', 'expression=1']);
    expect(human.exitCode).toBe(2);
    expect(human.stdout).toBe('');
    expect(human.stderr).toBe("✖ math_evl: Tool 'math_evl' not found. Did you mean: math_eval?");
    const json = await runInProcess(['--json', 'exec', 'math_evl']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, error_kind: 'not_found', tool_name: 'math_evl', error: "Tool 'math_evl' not found. Did you mean: math_eval?" });
  });

  it('exits 2 for arguments that fail validation', async () => {
    const result = await runInProcess(['--config', localTools, 'exec', 'set_level', 'level=5.5', 'action=up']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("✖ set_level: Invalid parameters: 'level' must be integer; 'action' must be one of: on, off, dim");
  });

  it('types key=value by the schema and merges over --args', async () => {
    const result = await runInProcess(['--json', '--config', localTools, 'exec', 'set_level', '--args', '{"action":"off","level":1}', 'level=50', 'tags=["a","b"]', 'enabled=true']);
    expect(JSON.parse(result.stdout).result).toEqual({ echo: { action: 'off', level: 50, tags: ['a', 'b'], enabled: true } });
  });

  it('reads --args - from stdin', async () => {
    const result = await runToolrun(['--json', 'exec', 'math_eval', '--args', '-'], { input: '{"expression":"sqrt(16)"}', stdin: undefined });
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: { result: 4 } });
  });

  // Issue 48: `x=1:1e9` asked V8 for one ~8 GB array, past the worker's heap limit in a single step,
  // and that aborted the whole process (exit 134), not only the thread. The spawned CLI, as the
  // abort is the process's.
  it('ends a huge range in math_eval as a tool error, the process alive', async () => {
    for (const [expression, message] of [
      ['x=1:1e9', '✖ math_eval: range would build 1,000,000,000 elements: too large for math_eval (the limit is 10,000,000)'],
      ['zeros(1e9)', '✖ math_eval: zeros would build 1,000,000,000 elements: too large for math_eval (the limit is 10,000,000)'],
    ] as const) {
      const result = await runToolrun(['exec', 'math_eval', `expression=${expression}`]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(message);
      expect(result.stdout).toBe('');
    }
  });

  it('exits 2 with one line for malformed ARGS', async () => {
    for (const [args, message] of [
      [['exec', 'echo', 'foo'], "✖ echo: argument 'foo' is not key=value; write foo=<value>, or foo:=<json> for a JSON value"],
      [['exec', 'echo', '=1'], "✖ echo: argument '=1' has no name before '='; write name=1"],
      [['exec', 'echo', '--args', '@missing.json'], '✖ echo: cannot read --args @missing.json: no such file; check the path (relative to the current folder)'],
    ] as const) {
      const result = await runInProcess([...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(message);
      expect(result.stdout).toBe('');
    }
  });

  it('reports --args - with empty stdin', async () => {
    const result = await runToolrun(['exec', 'echo', '--args', '-'], { input: '', stdin: undefined });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^✖ echo: --args - \(standard input\) was empty; pipe a JSON object/);
  });

  it('exits 2 for an unknown flag or command, JSON too', async () => {
    const flag = await runInProcess(['exec', 'echo', '--bogus']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toBe("✖ unknown option '--bogus'. Run 'toolrun --help' (or 'toolrun <command> --help') for usage.");
    const json = await runInProcess(['--json', 'frobnicate']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ success: false, error: "unknown command 'frobnicate'", error_kind: 'usage' });
  });

  it('exits 1 when the tool fails, and on timeout', async () => {
    const failed = await runInProcess(['--config', localTools, 'exec', 'lookup_user', 'id=9']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toBe('✖ lookup_user: no user with id 9');
    const timedOut = await runInProcess(['--config', localTools, '--timeout', '300', '--json', 'exec', 'spin']);
    expect(timedOut.exitCode).toBe(1);
    expect(JSON.parse(timedOut.stdout)).toMatchObject({ success: false, error_kind: 'timeout', error: "Tool 'spin' timed out after 300 ms (raise it with --timeout or timeoutMs)" });
  });

  it("keeps a tool's console.log off stdout", async () => {
    const result = await runToolrun(['--json', '--config', localTools, 'exec', 'log_to_stdout']);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: { ok: true } });
    expect(result.stderr).toContain('this line would corrupt stdout');
  });

  it('exits 3 for a missing named config and for invalid JSON, with line:column', async () => {
    const missing = await runInProcess(['--config', 'nope.json', 'exec', 'echo']);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toMatch(/^✖ config file not found: .*nope\.json \(named by --config\)/);
    const broken = await runInProcess(['--json', '--config', join(FIXTURES, 'configs', 'broken-syntax.json'), 'exec', 'echo']);
    expect(broken.exitCode).toBe(3);
    expect(JSON.parse(broken.stdout)).toMatchObject({ success: false, error_kind: 'config', error: `${join(FIXTURES, 'configs', 'broken-syntax.json')}:3:19: invalid JSON: ',' expected` });
    const fromEnv = await runInProcess(['exec', 'echo'], { env: { TOOLRUN_CONFIG: 'absent.json' } });
    expect(fromEnv.exitCode).toBe(3);
    expect(fromEnv.stderr).toMatch(/named by \$TOOLRUN_CONFIG/);
  });
});

describe('colors', () => {
  it('uses no ANSI off a TTY, with NO_COLOR, and with --json even when forced', async () => {
    const plain = await runInProcess(['exec', 'nope']);
    expect(plain.stderr).not.toContain('\u001b[');
    const forced = await runInProcess(['exec', 'nope'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain('\u001b[31m');
    const forcedButNoColor = await runInProcess(['exec', 'nope'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(forcedButNoColor.stderr).not.toContain('\u001b[');
    const forcedJson = await runInProcess(['--json', 'exec', 'nope'], { env: { FORCE_COLOR: '1' } });
    expect(forcedJson.stdout + forcedJson.stderr).not.toContain('\u001b[');
    const flag = await runInProcess(['--no-color', 'exec', 'nope'], { env: { FORCE_COLOR: '1' } });
    expect(flag.stderr).not.toContain('\u001b[');
  });
});

describe('toolrun list and validate', () => {
  it('lists tools as a table, JSON, and provider formats', async () => {
    const table = await runInProcess(['list']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+SOURCE\s+PARAMETERS \(\* required\)\s+DESCRIPTION$/);
    expect(table.stdout).toMatch(/^math_eval\s+builtin\s+expression\*: string\s+Evaluates/m);
    const anthropic = JSON.parse((await runInProcess(['list', '--format', 'anthropic'])).stdout);
    expect(anthropic).toContainEqual({
      name: 'math_eval',
      description: expect.any(String),
      input_schema: { type: 'object', properties: { expression: expect.any(Object) }, required: ['expression'] },
    });
    const openai = JSON.parse((await runInProcess(['list', '--format', 'openai'])).stdout);
    expect(openai[0]).toMatchObject({ type: 'function', function: { name: 'get_current_datetime', parameters: { type: 'object' } } });
    const json = JSON.parse((await runInProcess(['--json', 'list', '--local', '--config', localTools])).stdout);
    expect(json.tools.map((tool: { name: string }) => tool.name)).toContain('get_weather');
    expect(json.tools.find((tool: { name: string }) => tool.name === 'get_weather')).toMatchObject({ source: 'mock', description: 'Weather for a city' });
  });

  it('rejects an unknown --format', async () => {
    const result = await runInProcess(['list', '--format', 'yaml']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/option '--format <format>' argument 'yaml' is invalid/);
  });

  it('validates the config and exits 3 on problems', async () => {
    const result = await runInProcess(['--json', '--config', localTools, 'validate']);
    expect(result.exitCode).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, problems: [{ path: 'tools[11].implementation.handler', message: expect.stringMatching(/^Builtin handler 'nope' not found/) }] });
    // Once the file itself is sound, each internal module is loaded and its handler looked for.
    const { writeTempConfig } = await import('../helpers/temp-config.js');
    const handlers = writeTempConfig({
      tools: [
        { name: 'ok', description: 'd', implementation: { type: 'internal', module: join(FIXTURES, 'tools', 'users.js'), handler: 'greet' } },
        { name: 'missing', description: 'd', implementation: { type: 'internal', module: join(FIXTURES, 'tools', 'users.js'), handler: 'nope' } },
      ],
    });
    const checked = await runInProcess(['--json', '--config', handlers, 'validate']);
    expect(checked.exitCode).toBe(3);
    expect(JSON.parse(checked.stdout).problems).toEqual([
      { path: 'tools[1].implementation.handler', message: expect.stringMatching(/^Internal handler 'nope' not found in .*users\.js \(it exports: /) },
    ]);
    const ok = await runInProcess(['validate']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/valid$/);
  });

  it('validates arguments without running, printing them as they would be sent', async () => {
    const ok = await runInProcess(['--json', '--config', localTools, 'validate', 'set_level', 'level=7', 'action=on']);
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ valid: true, tool_name: 'set_level', arguments: { level: 7, action: 'on' } });
    const bad = await runInProcess(['--config', localTools, 'validate', 'set_level', 'level=7']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("✖ Invalid parameters: missing 'action'");
  });
});

describe('help', () => {
  it.each([[[]], [['exec']], [['list']], [['validate']]])('shows examples for %j', async (command) => {
    const result = await runInProcess([...command, '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('$ toolrun');
  });

  it('prints the version', async () => {
    const result = await runInProcess(['--version']);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('configs found valid', () => {
  it('are remembered by digest and not checked again; an edited or invalid text is checked; --no-cache neither reads nor writes', async () => {
    const cache = tempDir();
    const config = writeTempConfig({ timeoutMs: 5000 });
    const folder = join(cache, 'toolrun', 'valid-configs');
    const uncached = await runInProcess(['--config', config, '--no-cache', 'exec', 'echo', 'a=1'], { env: { XDG_CACHE_HOME: cache } });
    expect(uncached.exitCode).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect((await runInProcess(['--config', config, 'exec', 'echo', 'a=1'], { env: { XDG_CACHE_HOME: cache } })).exitCode).toBe(0);
    expect(readdirSync(folder)).toHaveLength(1);
    // Same text again: still one entry, same answer.
    expect((await runInProcess(['--config', config, 'exec', 'echo', 'a=1'], { env: { XDG_CACHE_HOME: cache } })).exitCode).toBe(0);
    expect(readdirSync(folder)).toHaveLength(1);
    writeFileSync(config, JSON.stringify({ timeoutMs: 0 }));
    const invalid = await runInProcess(['--config', config, 'exec', 'echo', 'a=1'], { env: { XDG_CACHE_HOME: cache } });
    expect(invalid.exitCode).toBe(3);
    expect(invalid.stderr.trim()).toBe(`✖ ${config}: timeoutMs: must be a positive integer, found 0`);
    expect(readdirSync(folder)).toHaveLength(1);
  });
});

// Issue #19 item 15: Node fires a timer of 2^31 ms or more at once, so such a timeout would end every
// call immediately. The longest toolrun accepts is the longest Node can wait: 2147483647 ms (~24.8 days).
describe('milliseconds beyond what a timer can wait', () => {
  const localTools = join(FIXTURES, 'configs', 'local-tools.json');

  it('--timeout 2147483648 is a usage error naming the maximum (exit 2); 2147483647 works', async () => {
    for (const args of [
      ['--timeout', '2147483648', 'exec', 'hang'],
      ['exec', 'hang', '--timeout=9999999999'],
    ]) {
      const result = await runInProcess(['--config', localTools, ...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(
        "✖ option '--timeout <ms>' argument '" +
          args.find((word) => /\d{10}/.test(word))!.replace('--timeout=', '') +
          "' is invalid. expected at most 2147483647 ms (about 24.8 days, the longest a timer can wait). Run 'toolrun --help' (or 'toolrun <command> --help') for usage.",
      );
    }
    const longest = await runInProcess(['--config', localTools, '--timeout', '2147483647', '--json', 'exec', 'echo', 'a=1']);
    expect(longest.exitCode).toBe(0);
  });

  it.each([
    [{ timeoutMs: 2 ** 31 }, 'timeoutMs'],
    [{ connectTimeoutMs: 1e12 }, 'connectTimeoutMs'],
    [{ installTimeoutMs: 2 ** 31 }, 'installTimeoutMs'],
    [{ slowToolMs: 2 ** 31 }, 'slowToolMs'],
    [{ retry: { attempts: 2, baseDelayMs: 2 ** 31 } }, 'retry.baseDelayMs'],
    [{ mcpServers: { a: { command: 'node', connectTimeoutMs: 2 ** 31 } } }, 'mcpServers.a.connectTimeoutMs'],
    [{ mcpServers: { a: { command: 'node', installTimeoutMs: 2 ** 31 } } }, 'mcpServers.a.installTimeoutMs'],
  ])('%j is a config error naming the maximum (exit 3)', async (settings, path) => {
    const config = writeTempConfig(settings);
    const result = await runInProcess(['--config', config, 'exec', 'echo']);
    expect(result.exitCode).toBe(3);
    const found = JSON.stringify(path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], settings));
    expect(result.stderr.trim()).toBe(`✖ ${config}: ${path}: must be at most 2147483647 ms (about 24.8 days, the longest a timer can wait), found ${found}`);
  });

  it('session start --idle 25d is a usage error naming the maximum (exit 2)', async () => {
    const config = writeTempConfig({ mcpServers: { a: { command: 'node' } } });
    const result = await runInProcess(['--config', config, 'session', 'start', '--idle', '600h']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe("✖ --idle '600h' is longer than 2147483647 ms (about 24.8 days, the longest a timer can wait); use e.g. 90s, 10m or 1h");
  });
});
