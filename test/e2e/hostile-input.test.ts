import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasFileOpen, newProcessMarker, waitFor } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Hostile and mistaken input (SPEC §8): every case one line, a documented exit code, nothing hung.

function writeRaw(text: string): string {
  const path = join(tempDir(), 'toolrun.config.json');
  writeFileSync(path, text);
  return path;
}

function fifo(): string {
  const path = join(tempDir(), 'pipe');
  execFileSync('mkfifo', [path]);
  return path;
}

describe('config keys that would reach a prototype', () => {
  it('"__proto__" at the top is refused, not applied (exit 3, with line and column)', async () => {
    const path = writeRaw('{\n  "__proto__": { "timeoutMs": 5 },\n  "mcpServers": {}\n}');
    const result = await runInProcess(['--config', path, 'exec', 'echo']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr.trim()).toBe(`✖ ${path}:2:3: the key "__proto__" is not allowed (it would change how objects behave, not configure toolrun); rename or remove it`);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('a server named %s is refused', async (name) => {
    const result = await runInProcess(['--config', writeRaw(`{"mcpServers": {"${name}": {"command": "node"}}}`), 'mcp', 'list']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`the key "${name}" is not allowed`);
  });

  it('servers named toString and hasOwnProperty are ordinary names', async () => {
    const config = writeTempConfig({ mcpServers: { toString: fixtureServer('zwave-server.js'), hasOwnProperty: fixtureServer('zwave-server.js') } });
    const result = await runInProcess(['--config', config, '--json', 'exec', 'toString:list_zwave_devices']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, server: 'toString' });
  });

  it('"constructor" stays usable as a JSON Schema property name of a config tool', async () => {
    const tool = { name: 't', description: 'd', parameters: { type: 'object', properties: { constructor: { type: 'string' } } }, implementation: { type: 'mock', mock_response: 1 } };
    const result = await runInProcess(['--config', writeTempConfig({ tools: [tool] }), 'exec', 't', 'constructor=x']);
    expect(result.exitCode).toBe(0);
  });

  // Issue #19 item 19: `__proto__` is a legitimate property name of a tool's schema (README, SPEC §8
  // refuses it only as a config key): it is passed on as an argument and validated, never applied.
  it('an ARG named __proto__ is passed on as an argument, not made the prototype', async () => {
    const result = await runInProcess(['--json', 'exec', 'echo', '__proto__:={"a":1}', 'b=2']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).result).toEqual(JSON.parse('{"echo": {"__proto__": {"a": 1}, "b": "2"}}'));
  });

  describe('"__proto__" as a property name of a config tool\'s schema', () => {
    const tool = {
      name: 't',
      description: 'd',
      parameters: JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string", "minLength": 2}}, "required": ["__proto__"]}'),
      implementation: { type: 'builtin', handler: 'echo' },
    };
    const config = writeTempConfig({ tools: [tool] });

    it.each([
      [['__proto__=xy'], 0, '{"echo": {"__proto__": "xy"}}'],
      [['--args', '{"__proto__": "xyz"}'], 0, '{"echo": {"__proto__": "xyz"}}'],
    ])('%j is passed on (exit 0)', async (words, exitCode, echoed) => {
      const result = await runInProcess(['--config', config, '--json', 'exec', 't', ...words]);
      expect(result.exitCode).toBe(exitCode);
      expect(JSON.parse(result.stdout).result).toEqual(JSON.parse(echoed));
    });

    it.each([
      [['__proto__=x'], "Invalid parameters: '__proto__' must NOT have fewer than 2 characters"],
      [['--args', '{"__proto__": {"polluted": true}}'], "Invalid parameters: '__proto__' must be string"],
      [[], "Invalid parameters: missing '__proto__'"],
    ])('%j is validated like any property (exit 2)', async (words, error) => {
      const result = await runInProcess(['--config', config, '--json', 'exec', 't', ...words]);
      expect(result.exitCode).toBe(2);
      expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error_kind: 'invalid_args', error });
    });

    it('list shows it as a parameter', async () => {
      const result = await runInProcess(['--config', config, 'list']);
      expect(result.stdout).toMatch(/^t +builtin +__proto__\*: string +d$/m);
    });
  });

  it('"__proto__" as a property name of an MCP server\'s tool: listed, validated and sent to the server', async () => {
    const config = writeTempConfig({ mcpServers: { p: fixtureServer('proto-property-server.js') } });
    const sent = await runInProcess(['--config', config, '--json', 'exec', 'p:keep', '__proto__=xy']);
    expect(sent.exitCode).toBe(0);
    expect(JSON.parse(sent.stdout).result).toBe('{"__proto__":"xy"}');
    const refused = await runInProcess(['--config', config, '--json', 'exec', 'p:keep']);
    expect(refused.exitCode).toBe(2);
    expect(JSON.parse(refused.stdout).error).toBe("Invalid parameters: missing '__proto__'");
  });
});

describe('config shape', () => {
  it('nesting 6,000 levels deep is a config error (exit 3), not an internal error', async () => {
    const path = writeRaw(`${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`);
    const result = await runInProcess(['--config', path, '--json', 'list']);
    expect(result.exitCode).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error_kind: 'config' });
    expect(result.stderr).toContain('nested deeper than 100 levels');
  });

  it.each([
    ['a:b', "server name 'a:b' contains ':', which separates server and tool in 'SERVER:TOOL'; rename it (e.g. 'a-b')"],
    ['', 'a server name cannot be empty'],
  ])('server name %j is refused with the reason', async (name, message) => {
    const result = await runInProcess(['--config', writeTempConfig({ mcpServers: { [name]: fixtureServer('zwave-server.js') } }), 'mcp', 'list']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(message);
  });

  it('${A:-${B}} nests; $${X} is a literal ${X}', async () => {
    const tool = { name: 'show', description: 'd', implementation: { type: 'mock', mock_response: 1 } };
    const config = writeTempConfig({ tools: [tool], mcpServers: { s: { command: 'node', args: ['${UNSET_A:-${SET_B}}', '$${LITERAL}'] } } });
    const result = await runInProcess(['--config', config, '--json', 'mcp', 'doctor', 's'], { env: { SET_B: 'bee' } });
    const step = JSON.parse(result.stdout).steps.find((candidate: { id: string }) => candidate.id === 'config');
    expect(step.data.args).toEqual(['bee', '${LITERAL}']);
  });

  it('a config FIFO nobody writes to can be interrupted', async () => {
    const path = fifo();
    const run = runToolrun(['--config', path, 'list']);
    // Ctrl-C once toolrun waits on the FIFO (its handler is in place by then), not after a guessed delay.
    await waitFor(() => hasFileOpen(run.pid, path));
    run.kill('SIGINT');
    const result = await run;
    expect(result.exitCode).toBe(130);
  });
});

describe('${VAR} defaults nested 3,000 deep (issue #19 item 16)', () => {
  it.each([[['mcp', 'list', '--check']], [['exec', 'deep:x']], [['mcp', 'doctor', 'deep']]])('%j: a config error naming the nesting limit (exit 3)', async (args) => {
    const deep = `${'${A:-'.repeat(3000)}x${'}'.repeat(3000)}`;
    const path = writeTempConfig({ mcpServers: { deep: fixtureServer('zwave-server.js', { env: { X: deep } }) } });
    const result = await runInProcess(['--config', path, ...args]);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toContain('internal error');
    expect(output).toContain("mcpServers.deep.env.X: '${A:-${A:-${A:-${A:-${A:-${A:-${A:-${A:-…' nests ${…} more than 16 levels deep");
    expect(result.exitCode).toBe(3);
  });
});

describe('--args input is bounded and interruptible', () => {
  it('--args @/dev/zero stops at 64 MB with a usage error', async () => {
    const result = await runInProcess(['exec', 'echo', '--args', '@/dev/zero']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('✖ echo: --args @/dev/zero is more than 64 MB; arguments are read up to that size. Pass a smaller JSON object');
  });

  it('--args - from an endless stdin stops at 64 MB', async () => {
    const result = await runToolrun(['exec', 'echo', '--args', '-'], { stdin: undefined, inputFile: '/dev/zero' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--args - (standard input) is more than 64 MB');
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('--args @fifo with no writer ends on %s', async (signal) => {
    const path = fifo();
    const run = runToolrun(['exec', 'echo', '--args', `@${path}`]);
    // Signalled once it waits on the FIFO: before that, on a busy machine, it has no handlers yet.
    await waitFor(() => hasFileOpen(run.pid, path));
    run.kill(signal);
    const result = await run;
    expect(result.exitCode).toBe({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal]);
  });

  it('--args @fifo reads what a writer sends', async () => {
    const path = fifo();
    const run = runToolrun(['--json', 'exec', 'echo', '--args', `@${path}`]);
    writeFileSync(path, '{"a":1}');
    const result = await run;
    expect(JSON.parse(result.stdout).result).toEqual({ echo: { a: 1 } });
  });
});

describe('check-stdout capture input and --save', () => {
  it('--file on a FIFO with no writer ends on Ctrl-C', async () => {
    const path = fifo();
    const run = runToolrun(['mcp', 'check-stdout', '--file', path]);
    await waitFor(() => hasFileOpen(run.pid, path));
    run.kill('SIGINT');
    expect((await run).exitCode).toBe(130);
  });

  it('--file that is a folder: exit 2 naming it', async () => {
    const folder = tempDir();
    const result = await runInProcess(['mcp', 'check-stdout', '--file', folder]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(`✖ ${folder} is a folder, not a capture file`);
  });

  it('--save to a folder that does not exist fails before the server starts', async () => {
    const config = writeTempConfig({ mcpServers: { zwave: fixtureServer('zwave-server.js') } });
    const path = join(tempDir(), 'missing', 'capture.out');
    const result = await runInProcess(['--config', config, 'mcp', 'check-stdout', 'zwave', '--save', path]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(`✖ cannot write --save ${path}: its folder does not exist; give a file path in an existing, writable folder`);
  });

  it('--save writes as the server speaks: a Ctrl-C mid-session keeps what arrived', async () => {
    const dir = tempDir();
    const log = join(dir, 'shutdown.log');
    const config = writeTempConfig({ mcpServers: { rec: fixtureServer('shutdown-recorder-server.js', { env: { SHUTDOWN_LOG: log } }) } });
    const save = join(dir, 'capture.out');
    const run = runToolrun(['--config', config, 'mcp', 'check-stdout', 'rec', '--call', 'wait', '--save', save]);
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('call'));
    expect(statSync(save).size).toBeGreaterThan(0);
    run.kill('SIGINT');
    const result = await run;
    expect(result.exitCode).toBe(130);
    expect(readFileSync(save, 'utf8')).toContain('\\"serverInfo\\"');
    expect(result.stderr).toMatch(/recorded the session to .*capture\.out: \d+ lines sent, \d+ received, \d+ on stderr/);
  });
});

describe('internal handlers that misbehave', () => {
  const tool = (name: string, handler: string) => ({
    name,
    description: handler,
    implementation: { type: 'internal', module: join(import.meta.dirname, '..', '..', 'fixtures', 'tools', 'hostile.js'), handler },
  });
  const config = writeTempConfig({ tools: [tool('write_everywhere', 'writeEverywhere'), tool('circular', 'circular'), tool('fail_distinct', 'failDistinct')] });

  it("all of a handler's output reaches stderr, in order; stdout is the result alone", async () => {
    // The whole of stderr is compared: a busy machine's '⚠ Slow tool' line (the worker's start can take
    // over the default 1 s) is not among what this checks, so the threshold is out of its way.
    const quiet = writeTempConfig({ slowToolMs: 600_000, tools: [tool('write_everywhere', 'writeEverywhere')] });
    const result = await runToolrun(['--config', quiet, '--json', 'exec', 'write_everywhere']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: { ok: true } });
    expect(result.stderr).toBe(['console.log 1', 'fd 1 write', 'process.stdout.write', 'console.log 2', 'console.error'].join('\n'));
  });

  it('a circular result is the "cannot be serialized" tool error (exit 1), not an internal error', async () => {
    const result = await runInProcess(['--config', config, '--json', 'exec', 'circular']);
    expect(result.exitCode).toBe(1);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.error_kind).toBe('tool_error');
    expect(envelope.error).toMatch(/^the tool returned a value that cannot be serialized: Converting circular structure to JSON/);
  });

  it('time groups errors: the 10 most frequent messages and a count of the rest', async () => {
    const result = await runInProcess(['--config', config, '--json', 'time', 'fail_distinct', '-n', '60', '--warmup', '0']);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(Object.keys(report.errors)).toHaveLength(10);
    expect(report.errors['the common failure']).toBe(20);
    expect(report.other_errors).toEqual({ distinct: 31, calls: 31 });
    const human = await runInProcess(['--config', config, 'time', 'fail_distinct', '-n', '60', '--warmup', '0']);
    expect(human.stdout.split('\n').filter((line) => line.startsWith('error'))).toHaveLength(11);
    expect(human.stdout).toContain('error    31× in 31 other distinct messages');
  });
});

describe('interrupted --json still prints one document', () => {
  it.each([
    ['time', ['time', 'slow:slow_tool', 'ms:=200', '-n', '100', '--warmup', '0']],
    ['mcp doctor', ['mcp', 'doctor', 'slow', '--call', 'slow_tool', 'ms:=20000']],
    ['exec', ['exec', 'slow:slow_tool', 'ms:=20000']],
  ])(
    '%s',
    async (_name, args) => {
      // Ctrl-C once the server has the call (it notes each call as it starts), not after a guessed delay.
      const started = join(tempDir(), 'slow-started');
      const config = writeTempConfig({ mcpServers: { slow: fixtureServer('slow-tool-server.js', { env: { SLOW_STARTED_FILE: started } }) } });
      const marker = newProcessMarker();
      const run = runToolrun(['--config', config, '--json', ...args], { env: marker.env });
      await waitFor(() => existsSync(started));
      run.kill('SIGINT');
      const result = await run;
      expect(result.exitCode).toBe(130);
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error_kind: 'interrupted' });
    },
    20_000,
  );
});

describe('a 200 MB stderr flood', () => {
  it('doctor counts every line and shortens what it shows', async () => {
    const config = writeTempConfig({ mcpServers: { flood: fixtureServer('stderr-flood-server.js', { connectTimeoutMs: 60_000 }) } });
    const result = await runToolrun(['--config', config, '--json', 'mcp', 'doctor', 'flood'], { timeout: 60_000 });
    const stderr = JSON.parse(result.stdout).steps.find((step: { id: string }) => step.id === 'stderr');
    // 200 MB in lines of 100 bytes, written in whole blocks of 10,485 lines, and the final "flood done".
    const blocks = Math.ceil((200 * 1024 * 1024) / (10_485 * 100));
    expect(stderr.data.line_count).toBe(blocks * 10_485 + 1);
    const oneLine = writeTempConfig({ mcpServers: { flood: fixtureServer('stderr-flood-server.js', { connectTimeoutMs: 60_000, env: { LINE_BYTES: '0', FLOOD_MB: '20' } }) } });
    const single = await runToolrun(['--config', oneLine, 'mcp', 'doctor', 'flood'], { timeout: 60_000 });
    expect(single.stdout).toContain('stderr      2 lines, no errors');
    expect(Math.max(...single.stdout.split('\n').map((line) => line.length))).toBeLessThan(600);
  }, 90_000);
});
