import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';
import { withoutSlowToolLine } from '../helpers/slow-tool-line.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const home = join(FIXTURES, 'home.json');

describe('MCP tools through exec (zwave fixture)', () => {
  it('normalizes arguments, calls the server, prints the result', async () => {
    const result = await runCleanInProcess(['--config', home, 'exec', 'control_zwave_device', 'device_name=Switch One', 'command=on']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, device: { deviceName: 'Switch One', type: 'switch', state: 'on', level: 100 } });
    // home.json keeps the default slowToolMs: a busy machine's slow-tool warning is not what this checks.
    expect(withoutSlowToolLine(result.stderr).split('\n')).toEqual([
      'Normalized arguments of control_zwave_device: {device_name: "Switch One", command: "on"} → {deviceName: "Switch One", action: "on"}',
      expect.stringMatching(/^✔ control_zwave_device · mcp:zwave · [\d.]+ ms$/),
    ]);
  });

  it('types key=value by the server schema (level is an integer)', async () => {
    const result = await runCleanInProcess(['--json', '--config', home, 'exec', 'control_zwave_device', 'deviceName=Hall Dimmer', 'action=dim', 'level=40']);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, source: 'mcp', server: 'zwave', result: { device: { level: 40 } } });
  });

  it('validates against the server schema before calling (exit 2)', async () => {
    const result = await runCleanInProcess(['--config', home, 'exec', 'control_zwave_device', 'deviceName=Switch One', 'action=up']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("✖ control_zwave_device: Invalid parameters: 'action' must be one of: on, off, dim");
  });

  it("passes the server's own rejection on unchanged with --no-validate", async () => {
    const result = await runCleanInProcess(['--json', '--config', home, 'exec', 'control_zwave_device', 'deviceName=Switch One', 'action=up', '--no-validate']);
    expect(result.exitCode).toBe(1);
    const envelope = JSON.parse(result.stdout);
    expect(envelope).toMatchObject({ success: false, error_kind: 'tool_error' });
    expect(envelope.error).toMatch(/action/);
  });

  it('turns an isError result into exit 1 with the server text', async () => {
    const result = await runCleanInProcess(['--config', home, 'exec', 'get_device_status', 'deviceName=Attic']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("✖ get_device_status: Unknown device 'Attic'");
  });

  it('prints the raw MCP result with --raw', async () => {
    const result = await runCleanInProcess(['--config', home, 'exec', 'get_device_status', 'deviceName=Attic', '--raw']);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ content: [{ type: 'text', text: "Unknown device 'Attic'" }], isError: true });
    const ok = await runCleanInProcess(['--config', home, 'exec', 'get_device_status', 'deviceName=Switch One', '--raw']);
    expect(JSON.parse(ok.stdout)).toMatchObject({ content: [{ type: 'text' }], structuredContent: { deviceName: 'Switch One' } });
  });

  it('runs a local tool without starting any server', async () => {
    const state = join(tempDir(), 'starts');
    const config = writeTempConfig({
      mcpServers: {
        a: fixtureServer('flaky-server.js', { env: { FLAKY_STATE: state, FLAKY_FAILURES: '0' } }),
        b: fixtureServer('flaky-server.js', { env: { FLAKY_STATE: state, FLAKY_FAILURES: '0' } }),
        c: { command: 'definitely-not-a-command-toolrun' },
      },
    });
    const result = await runCleanInProcess(['--config', config, 'exec', 'get_current_datetime']);
    expect(result.exitCode).toBe(0);
    const { existsSync } = await import('node:fs');
    expect(existsSync(state)).toBe(false);
  });

  it('starts only the server named by --server or SERVER:TOOL', async () => {
    const state = join(tempDir(), 'starts');
    const config = writeTempConfig({
      mcpServers: {
        flaky: fixtureServer('flaky-server.js', { env: { FLAKY_STATE: state, FLAKY_FAILURES: '0' } }),
        broken: { command: 'definitely-not-a-command-toolrun' },
      },
    });
    const result = await runCleanInProcess(['--config', config, 'exec', 'flaky:ping_flaky']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('pong');
    expect(result.stderr).not.toContain('broken');
  });

  it('exits 2 for an unknown --server', async () => {
    const result = await runCleanInProcess(['--config', home, 'exec', 'echo', '--server', 'zwav']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("✖ echo: unknown MCP server 'zwav'; configured servers: zwave");
  });

  // Issue #19 item 21a: `time:get_current_time --server time` was looked up as 'time:time:get_current_time'.
  it('takes SERVER:TOOL with --server naming the same server, and refuses another server (exit 2)', async () => {
    const config = writeTempConfig({ mcpServers: { flaky: fixtureServer('flaky-server.js', { env: { FLAKY_FAILURES: '0' } }) } });
    const same = await runCleanInProcess(['--config', config, 'exec', 'flaky:ping_flaky', '--server', 'flaky']);
    expect(same).toMatchObject({ exitCode: 0, stdout: 'pong' });
    const validated = await runCleanInProcess(['--config', config, 'validate', 'flaky:ping_flaky', '--server', 'flaky']);
    expect(validated.exitCode).toBe(0);
    const other = await runCleanInProcess(['--config', config, 'exec', 'time:ping_flaky', '--server', 'flaky']);
    expect(other.exitCode).toBe(2);
    expect(other.stdout).toBe('');
    expect(other.stderr).toBe("✖ time:ping_flaky: 'time:ping_flaky' names MCP server 'time' but --server names 'flaky'; give the server once: toolrun exec flaky:ping_flaky, or --server time");
    const json = await runCleanInProcess(['--json', '--config', config, 'exec', 'time:ping_flaky', '--server', 'flaky']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, error_kind: 'usage', tool_name: 'time:ping_flaky' });
  });

  it('exits 3 when a needed server uses an unset variable', async () => {
    const config = writeTempConfig({ mcpServers: { s: fixtureServer('flaky-server.js', { env: { TOKEN: '${TOOLRUN_TEST_UNSET_TOKEN}' } }) } });
    const result = await runCleanInProcess(['--config', config, 'exec', 's:ping_flaky']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toBe(
      `✖ ${config}: mcpServers.s.env.TOKEN: environment variable TOOLRUN_TEST_UNSET_TOKEN is not set. Export it (export TOOLRUN_TEST_UNSET_TOKEN=...) or give a default: \${TOOLRUN_TEST_UNSET_TOKEN:-value}.`,
    );
  });
});

describe('connection failures and retry', () => {
  it('retries a flaky server and says on which attempt it succeeded', async () => {
    const state = join(tempDir(), 'starts');
    const config = writeTempConfig({ mcpServers: { flaky: fixtureServer('flaky-server.js', { env: { FLAKY_STATE: state, FLAKY_FAILURES: '1' } }) } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'ping_flaky']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('pong');
    expect(result.stderr).toContain("⚠ MCP server 'flaky': attempt 1 of 3 failed (server exited with code 1 before answering server/discover); retrying in 50 ms");
    expect(result.stderr).toContain("MCP connection succeeded on attempt 2: server 'flaky'");
  });

  it('shows the failure box after all attempts and exits 4', async () => {
    const config = writeTempConfig({
      mcpServers: { zwave: fixtureServer('zwave-server.js', { env: { MQTT_BROKER_URL: 'mqtt://127.0.0.1:9' }, hint: 'MQTT broker running, zwave-mcp-server installed' }) },
    });
    const result = await runCleanInProcess(['--config', config, 'exec', 'control_zwave_device', 'device_name=Switch One', 'command=on']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines).toContain(
      "⚠ MCP server 'zwave': attempt 2 of 3 failed (the server could not connect to 127.0.0.1:9 (connection refused: nothing listens there); the server exited with code 1); retrying in 100 ms",
    );
    const box = lines.slice(lines.indexOf("✖ MCP connection failed after 3 attempts: server 'zwave'"));
    expect(box).toEqual([
      "✖ MCP connection failed after 3 attempts: server 'zwave'",
      '  Reason: the server could not connect to 127.0.0.1:9 (connection refused: nothing listens there); the server exited with code 1',
      '  MCP server stderr (last 2 lines):',
      '    Error: connect ECONNREFUSED 127.0.0.1:9',
      '    zwave-mcp-server: cannot reach the MQTT broker at mqtt://127.0.0.1:9',
      '  Check: MQTT broker running, zwave-mcp-server installed',
      '  Check: start the service the server needs at 127.0.0.1:9, or point the server at the right address',
      "✖ control_zwave_device: Tool 'control_zwave_device' not found among the available tools; MCP server 'zwave' could not be connected, so its tools are unknown",
    ]);
  });

  it('does not retry a command that does not exist', async () => {
    const config = writeTempConfig({ mcpServers: { ghost: { command: 'definitely-not-a-command-toolrun' } } });
    const result = await runCleanInProcess(['--json', '--config', config, 'exec', 'ghost:anything']);
    expect(result.exitCode).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error_kind: 'unreachable' });
    expect(result.stderr).toContain("⚠ MCP server 'ghost': command not found: 'definitely-not-a-command-toolrun' (not on PATH, or the file does not exist); not retried (it would fail the same way)");
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'ghost'");
    expect(result.stderr).toContain('  Check: install \'definitely-not-a-command-toolrun\' or give its absolute path in "command"');
  });

  it('gives up on a server that never answers initialize, and ends it', async () => {
    // 1.5 s, not less: the stderr line asserted below is written once Node has started the fixture, and on a
    // loaded CI machine that took more than 400 ms on both attempts (stop 42's CI run).
    const config = writeTempConfig({ retry: { attempts: 2, baseDelayMs: 10 }, mcpServers: { hang: fixtureServer('hang-server.js', { connectTimeoutMs: 1500 }) } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'hang:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('  Reason: no answer to initialize within 1500 ms (the server hangs, or starts slowly: raise connectTimeoutMs)');
    expect(result.stderr).toContain('    hang-server: listening, and never going to answer');
  });

  it('reports a crashing server with its stderr and an inferred fix', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { crash: fixtureServer('crash-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'list']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatch(/^NAME/);
    expect(result.stderr).toContain("    Error: Cannot find module 'mqtt'");
    expect(result.stderr).toContain("  Check: install the server's dependencies (npm install in its folder): 'mqtt' is missing");
    expect(result.stderr).toContain('⚠ Continuing with local tools only (get_current_datetime, math_eval, echo)');
  });
});

describe('misbehaving servers', () => {
  it('warns about stdout pollution, quoting the line, and goes on', async () => {
    const config = writeTempConfig({ mcpServers: { noisy: fixtureServer('polluting-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'noisy']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('done');
    expect(result.stderr).toContain('⚠ [noisy] stdout line 1 is not JSON-RPC (not JSON), skipped: "Loading config..."');
  });

  it('ends a server that ignores SIGTERM', async () => {
    const config = writeTempConfig({ mcpServers: { stubborn: fixtureServer('ignore-sigterm-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'stubborn']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('still here');
  });

  it('times out a slow tool, cancelling it on the server', async () => {
    const config = writeTempConfig({ mcpServers: { slow: fixtureServer('slow-tool-server.js') } });
    const result = await runCleanInProcess(['--verbose', '--timeout', '500', '--config', config, '--json', 'exec', 'slow_tool', 'ms=5000']);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error_kind: 'timeout', error: "Tool 'slow_tool' timed out after 500 ms (raise it with --timeout or timeoutMs)" });
    expect(result.stderr).toContain('[slow] slow-tool-server: request cancelled by the client');
  });

  it('stops on Ctrl-C with exit 130 and leaves no server behind', async () => {
    const marker = newProcessMarker();
    // The server notes the call as it starts: Ctrl-C comes while the call is in flight, however long
    // a busy machine takes to get there (a fixed pause could come before it).
    const started = join(tempDir(), 'slow-started');
    const config = writeTempConfig({ mcpServers: { slow: fixtureServer('slow-tool-server.js', { env: { SLOW_STARTED_FILE: started } }) } });
    const running = runToolrun(['--config', config, 'exec', 'slow_tool', 'ms=20000'], { env: marker.env });
    await waitFor(() => existsSync(started));
    running.kill('SIGINT');
    const result = await running;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('✖ interrupted (SIGINT); stopping');
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });
});

describe('signals', () => {
  async function interruptWhenRunning(args: string[], signal: NodeJS.Signals, processes: number, startedFile: string) {
    const marker = newProcessMarker();
    // The spinning local tool and the slow server (the environment reaches both) write `startedFile` as
    // their work starts: the signal comes then. A fixed pause was not enough on a busy machine.
    const running = runToolrun(args, { env: { ...marker.env, SPIN_STARTED_FILE: startedFile, SLOW_STARTED_FILE: startedFile } });
    const deadline = Date.now() + 10_000;
    while (marker.alive().length < processes && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await waitFor(() => existsSync(startedFile));
    running.kill(signal);
    const result = await running;
    return { result, left: await waitForNoProcesses(marker.alive) };
  }

  it('stops a CPU-bound local tool on Ctrl-C at once (exit 130)', async () => {
    const { result, left } = await interruptWhenRunning(['--config', join(FIXTURES, 'configs', 'local-tools.json'), '--timeout', '60000', 'exec', 'spin'], 'SIGINT', 1, join(tempDir(), 'spinning'));
    // Stopped by the signal, not left to spin out its 60 s timeout (which the test's own limit cuts short).
    expect(result.exitCode).toBe(130);
    expect(left).toEqual([]);
  });

  it('ends the servers on SIGTERM (exit 143)', async () => {
    const config = writeTempConfig({ mcpServers: { slow: fixtureServer('slow-tool-server.js') } });
    const { result, left } = await interruptWhenRunning(['--config', config, 'time', 'slow_tool', 'ms=1000', '-n', '50'], 'SIGTERM', 2, join(tempDir(), 'started'));
    expect(result.exitCode).toBe(143);
    expect(result.stderr).toContain('✖ interrupted (SIGTERM); stopping');
    expect(left).toEqual([]);
  });
});

describe('@modelcontextprotocol/server-everything', () => {
  const config = () => writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });

  it('lists its tools, with the shadowed echo under its qualified name', async () => {
    const result = await runCleanInProcess(['--json', '--config', config(), 'list', '--server', 'everything']);
    expect(result.exitCode).toBe(0);
    const names = JSON.parse(result.stdout).tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything:echo', 'get-sum', 'get-env']));
    // Provider formats need unique names of [A-Za-z0-9_-]: the shadowed echo is offered as everything__echo, and said so.
    const anthropic = await runCleanInProcess(['--config', config(), 'list', '--format', 'anthropic']);
    const toolNames = JSON.parse(anthropic.stdout).map((tool: { name: string }) => tool.name);
    expect(toolNames.filter((name: string) => name === 'echo')).toHaveLength(1);
    expect(toolNames).toEqual(expect.arrayContaining(['everything__echo', 'get-sum']));
    expect(anthropic.stderr).toBe('offered under API names (exec and the library API take them): everything:echo → everything__echo');
  });

  it('runs the shadowed echo by the API name a model was given (everything__echo)', async () => {
    const result = await runCleanInProcess(['--config', config(), 'exec', 'everything__echo', 'message=hi']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Echo: hi');
    expect(withoutSlowToolLine(result.stderr)).toMatch(/^✔ echo · mcp:everything · [\d.]+ ms$/);
  });

  it('calls echo and get-sum (a=2 b=3 arrive as numbers)', async () => {
    const path = config();
    const echo = await runCleanInProcess(['--config', path, 'exec', 'echo', 'message=hi', '--server', 'everything']);
    expect(echo.stdout).toBe('Echo: hi');
    const sum = await runCleanInProcess(['--json', '--config', path, 'exec', 'get-sum', 'a=2', 'b=3']);
    expect(JSON.parse(sum.stdout)).toMatchObject({ success: true, result: 'The sum of 2 and 3 is 5.' });
  });

  it("passes the parent's environment to the server (get-env)", async () => {
    const result = await runCleanInProcess(['--json', '--config', config(), 'exec', 'get-env'], { env: { TOOLRUN_PARENT_VAR: 'visible' } });
    expect(JSON.parse(JSON.parse(result.stdout).result)).toMatchObject({ TOOLRUN_PARENT_VAR: 'visible' });
  });

  it('shows images as a short line', async () => {
    const result = await runCleanInProcess(['--config', config(), 'exec', 'get-tiny-image']);
    expect(result.stdout).toMatch(/^\[image\/png, [\d.]+ kB\] \(write it to a file with -o DIR\)$/m);
  });

  it('mcp list --check shows status, tool count and connect time', async () => {
    const result = await runCleanInProcess(['--json', '--config', config(), 'mcp', 'list', '--check']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).servers[0]).toMatchObject({ name: 'everything', transport: 'stdio', status: 'ok', tools: expect.any(Number), connect_ms: expect.any(Number) });
  });

  // Issue #19 item 21c: the README promised the resource and prompt counts; list --check showed neither.
  it('mcp list --check counts resources and prompts as doctor does (table and --json); none advertised is -', async () => {
    const path = writeTempConfig({
      mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] }, flaky: fixtureServer('flaky-server.js', { env: { FLAKY_FAILURES: '0' } }) },
    });
    const doctor = await runCleanInProcess(['--json', '--config', path, 'mcp', 'doctor', 'everything']);
    const counts = JSON.parse(doctor.stdout).steps.find((step: { id: string }) => step.id === 'tools').data;
    expect(counts).toMatchObject({ resources: expect.any(Number), prompts: expect.any(Number) });
    const json = await runCleanInProcess(['--json', '--config', path, 'mcp', 'list', '--check']);
    expect(json.exitCode).toBe(0);
    const [everything, flaky] = JSON.parse(json.stdout).servers;
    expect(everything).toMatchObject({ tools: counts.tools, resources: counts.resources, prompts: counts.prompts });
    expect(flaky).toMatchObject({ name: 'flaky', status: 'ok', tools: 1 });
    expect(flaky).not.toHaveProperty('resources');
    expect(flaky).not.toHaveProperty('prompts');
    const table = (await runCleanInProcess(['--config', path, 'mcp', 'list', '--check'])).stdout.split('\n');
    expect(table[0]).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+TOOLS\s+RESOURCES\s+PROMPTS\s+PROTOCOL\s+CONNECT\s+COMMAND \/ URL$/);
    expect(table[1]).toMatch(new RegExp(`^everything\\s+stdio\\s+✔ ok\\s+${counts.tools}\\s+${counts.resources}\\s+${counts.prompts}\\s+2025-11-25\\s+\\d+ ms `));
    expect(table[2]).toMatch(/^flaky\s+stdio\s+✔ ok\s+1\s+-\s+-\s+2025-11-25\s+\d+ ms /);
  });
});

// Issue #19 item 21d: a tool name taken from another source (a config tool over a builtin, two servers
// sharing a name) is a config finding for validate, and nothing mcp list reports on.
describe('tool shadowing, where it concerns the command', () => {
  const config = () =>
    writeTempConfig({
      mcpServers: { a: fixtureServer('flaky-server.js', { env: { FLAKY_FAILURES: '0' } }), b: fixtureServer('flaky-server.js', { env: { FLAKY_FAILURES: '0' } }) },
      tools: [{ name: 'echo', description: 'mine', parameters: { type: 'object' }, implementation: { type: 'mock', mock_response: { mine: true } } }],
    });
  const local = "Tool 'echo' from mock tools replaces the one from builtin tools";
  const servers = "Tool 'ping_flaky' from MCP server 'b' replaces the one from MCP server 'a' (that one stays reachable as a:ping_flaky)";

  it('validate shows it as its own findings (warnings, exit 0), not as stray stderr lines', async () => {
    const path = config();
    const human = await runCleanInProcess(['--config', path, 'validate']);
    expect(human.exitCode).toBe(0);
    expect(human.stderr).toBe('');
    expect(human.stdout.split('\n')).toEqual([
      `✔ config ${path}`,
      '  1 local tool in the config, 2 MCP servers',
      `  ⚠ ${local}`,
      '✔ MCP tools: 2 from 2 of 2 servers',
      `  ⚠ ${servers}`,
      'valid (2 warnings)',
    ]);
    const json = await runCleanInProcess(['--json', '--config', path, 'validate']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, shadowing: [local, servers] });
    // A config tool over a builtin is a fact of the config: --offline reports it too.
    const offline = await runCleanInProcess(['--json', '--config', path, 'validate', '--offline']);
    expect(offline.stderr).toBe('');
    expect(JSON.parse(offline.stdout)).toMatchObject({ valid: true, shadowing: [local] });
  });

  it('mcp list (with and without --check) does not print it', async () => {
    const path = config();
    const checked = await runCleanInProcess(['--config', path, 'mcp', 'list', '--check']);
    expect(checked.exitCode).toBe(0);
    expect(checked.stderr).toBe('');
    const listed = await runCleanInProcess(['--config', path, 'mcp', 'list']);
    expect(listed.stderr).toBe('');
    // Where it does concern the command (which tool a plain name runs), it is still said.
    const exec = await runCleanInProcess(['--config', path, 'exec', 'echo']);
    expect(exec.stderr.split('\n')[0]).toBe(`⚠ ${local}`);
  });
});
