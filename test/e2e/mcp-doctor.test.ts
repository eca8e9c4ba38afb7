import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

type Step = { id: string; status: string; finding: string; fix?: string; details: string[]; data: Record<string, unknown> };
const stepsOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout).steps as Step[]).map((step) => [step.id, step]));

describe('toolrun mcp doctor', () => {
  it('finds server-everything healthy (exit 0) with all eight steps', async () => {
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'], env: { API_TOKEN: 'hunter2' } } } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'everything', '--call', 'get-sum', 'a=2', 'b=3']);
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ server: 'everything', verdict: 'healthy', problems: 0 });
    expect(report.steps.map((step: Step) => step.id)).toEqual(['config', 'spawn', 'initialize', 'tools', 'stdout', 'stderr', 'latency', 'shutdown']);
    const steps = stepsOf(result.stdout);
    expect(steps.config!.data.env).toEqual({ API_TOKEN: '***' });
    expect(result.stdout).not.toContain('hunter2');
    expect(steps.initialize!.data).toMatchObject({ protocol_version: expect.any(String), server_info: { name: expect.any(String) } });
    expect(steps.tools!.data).toMatchObject({ tools: expect.any(Number), resources: expect.any(Number), prompts: expect.any(Number) });
    expect(steps.latency!.data).toMatchObject({ ping_ms: expect.any(Array), call: { tool: 'get-sum', is_error: false } });
    expect((steps.latency!.data.ping_ms as number[]).length).toBe(5);
    expect(steps.shutdown).toMatchObject({ status: 'ok', data: { outcome: 'stdin-closed' } });
  });

  it('prints a human report with a verdict line', async () => {
    const result = await runCleanInProcess(['--config', join(FIXTURES, 'home.json'), 'mcp', 'doctor']);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('toolrun mcp doctor zwave (stdio)');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^✔ initialize {2}initialize answered in \d+ ms · protocol 2025-11-25 \(initialize era\) · chosen automatically: server\/discover refused \(-32601 Method not found\), then initialize · zwave-mcp-server 1\.2\.0 · capabilities: tools$/,
      ),
    );
    expect(lines).toContainEqual('✔ tools       3 tools · schemas compile, names follow the MCP rules, all described');
    expect(lines.at(-1)).toMatch(/^Healthy: 0 problems, 0 warnings \(\d+ ms\)$/);
  });

  it('reports stdout pollution with line numbers (exit 1)', async () => {
    const config = writeTempConfig({ mcpServers: { noisy: fixtureServer('polluting-server.js') } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'noisy']);
    expect(result.exitCode).toBe(1);
    const steps = stepsOf(result.stdout);
    expect(steps.stdout).toMatchObject({ status: 'fail', details: ['line 1, byte 0: not-json  "Loading config..."', 'line 2, byte 18: not-json  "Server ready"'] });
    expect(steps.stdout!.fix).toMatch(/^write diagnostics to stderr: console\.error\(\)/);
  });

  it('reports a crash with its stderr and the fix (exit 4)', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { crash: fixtureServer('crash-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'mcp', 'doctor', 'crash']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toContain("✖ spawn       the process started, then failed: the module 'mqtt' is not installed (Node: Cannot find module); the server exited with code 1 (attempt 1 of 1)");
    expect(result.stdout).toContain("    ! Error: Cannot find module 'mqtt'");
    expect(result.stdout).toContain("    fix: install the server's dependencies (npm install in its folder): 'mqtt' is missing");
    expect(result.stdout.split('\n').at(-1)).toMatch(/^Unreachable: /);
  });

  it('reports a server slow to start as an initialize timeout', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { hang: fixtureServer('hang-server.js', { connectTimeoutMs: 300 }) } });
    const steps = stepsOf((await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'hang'])).stdout);
    expect(steps.spawn!.status).toBe('ok');
    // The request named is the one in flight when the 300 ms ran out: initialize, after the server/discover
    // probe's 150 ms of silence; or the probe itself when a loaded machine took half the budget to start the server.
    expect(steps.initialize).toMatchObject({
      status: 'fail',
      finding: expect.stringMatching(/^no answer to (initialize|server\/discover) within 300 ms \(the server hangs, or starts slowly: raise connectTimeoutMs\) \(attempt 1 of 1\)$/),
    });
  });

  it('reports retries of a flaky start', async () => {
    const config = writeTempConfig({ mcpServers: { flaky: fixtureServer('flaky-server.js', { env: { FLAKY_STATE: join(tempDir(), 'n'), FLAKY_FAILURES: '1' } }) } });
    const steps = stepsOf((await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'flaky'])).stdout);
    expect(steps.initialize).toMatchObject({ status: 'warn', finding: expect.stringMatching(/^connected on attempt 2 of 3: flaky start · initialize answered in/) });
  });

  it('reports a server that needs SIGKILL', async () => {
    const config = writeTempConfig({ mcpServers: { stubborn: fixtureServer('ignore-sigterm-server.js') } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'stubborn']);
    expect(result.exitCode).toBe(1);
    expect(stepsOf(result.stdout).shutdown).toMatchObject({ status: 'fail', data: { outcome: 'SIGKILL' } });
  });

  it('reports invalid tool schemas, bad names, duplicates and missing descriptions', async () => {
    const config = writeTempConfig({ mcpServers: { bad: fixtureServer('bad-tools-server.js') } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'bad']);
    expect(result.exitCode).toBe(1);
    const tools = stepsOf(result.stdout).tools!;
    expect(tools.status).toBe('fail');
    expect(tools.details).toEqual([
      '✖ list_output: outputSchema.type: expected "object"; the tool is left out (its other tools work) (MCP 2025-11-25 server/tools § Output Schema)',
      expect.stringMatching(/^✖ broken_output: outputSchema does not compile: .*numbr; the tool is left out \(its other tools work\) \(MCP 2025-11-25 server\/tools § Output Schema\)$/),
      expect.stringMatching(/^✖ broken_schema: inputSchema is not valid JSON Schema: .* \(MCP 2025-11-25 server\/tools § Tool\)$/),
      expect.stringMatching(/^✖ bad name!: name does not follow the MCP naming rules: .* \(MCP 2025-11-25 server\/tools § Tool Names\)$/),
      '✖ good_tool: the server lists this name twice (names are unique within a server) (MCP 2025-11-25 server/tools § Tool Names)',
      '⚠ undescribed: no description: models choose tools by their description',
    ]);
    expect(tools.finding).toBe('5 tools · 5 definition problems');
  });

  describe("with --call, the result against the tool's outputSchema (SPEC §9)", () => {
    const config = () => writeTempConfig({ mcpServers: { out: fixtureServer('bad-output-server.js') } });
    const doctorCall = async (tool: string) => {
      const result = await runCleanInProcess(['--json', '--config', config(), 'mcp', 'doctor', 'out', '--call', tool]);
      return { exitCode: result.exitCode, steps: stepsOf(result.stdout) };
    };

    it('quotes the failing path of a structuredContent that does not validate', async () => {
      const { exitCode, steps } = await doctorCall('wrong_output');
      expect(exitCode).toBe(1);
      expect(steps.tools).toMatchObject({
        status: 'fail',
        finding: '4 tools · 1 problem in the --call result',
        details: [
          '✖ wrong_output: --call: structuredContent does not match the outputSchema: structuredContent.count: must be number (found "three") (and 1 more) (MCP 2025-11-25 server/tools § Output Schema)',
        ],
        fix: 'make wrong_output return what the spec asks (structuredContent that matches its outputSchema): clients reject or mis-read it',
      });
      expect(steps.latency!.status).toBe('ok');
    });

    it('checks the structuredContent of an isError result too', async () => {
      const { exitCode, steps } = await doctorCall('wrong_error_output');
      expect(exitCode).toBe(1);
      expect(steps.tools!.details).toEqual([
        "✖ wrong_error_output: --call: structuredContent of the isError result does not match the outputSchema: structuredContent: missing 'count' (MCP 2025-11-25 server/tools § Output Schema)",
      ]);
      expect(steps.latency).toMatchObject({ status: 'fail', fix: 'the call returned isError: backend down' });
    });

    it('reports a result without structuredContent from a tool with an outputSchema', async () => {
      const { steps } = await doctorCall('missing_structured');
      expect(steps.tools!.details).toEqual([
        '✖ missing_structured: --call: the tool declares an outputSchema but the result has no structuredContent (servers must return structured results that conform to it) (MCP 2025-11-25 server/tools § Output Schema)',
      ]);
    });

    it('does not call a tool the server does not list, and names the closest', async () => {
      const { exitCode, steps } = await doctorCall('good_outpt');
      expect(exitCode).toBe(1);
      expect(steps.latency).toMatchObject({
        status: 'fail',
        finding: expect.stringMatching(/ · --call good_outpt not made: the server lists no tool 'good_outpt' \(did you mean good_output\?\)$/),
        fix: "name one of the server's tools: toolrun list --server out",
      });
    });

    it('passes a result that keeps the contract, and says so', async () => {
      const { exitCode, steps } = await doctorCall('good_output');
      expect(exitCode).toBe(0);
      expect(steps.tools).toMatchObject({ status: 'ok', finding: "4 tools · schemas compile, names follow the MCP rules, all described · the --call result matches good_output's outputSchema" });
    });
  });

  it('reports a missing command in config and spawn, and names unset variables', async () => {
    const config = writeTempConfig({ retry: { attempts: 3, baseDelayMs: 1000 }, mcpServers: { ghost: { command: 'no-such-command-toolrun', env: { SECRET_KEY: '${TOOLRUN_TEST_SECRET:-s3cret}' } } } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'ghost']);
    expect(result.exitCode).toBe(4);
    const steps = stepsOf(result.stdout);
    expect(steps.config).toMatchObject({
      status: 'fail',
      finding: "command not found: 'no-such-command-toolrun' is not on PATH",
      data: { env: { SECRET_KEY: '***' }, variables: ['TOOLRUN_TEST_SECRET'] },
    });
    expect(steps.spawn).toMatchObject({ status: 'fail' });
    expect(result.stdout).not.toContain('s3cret');
  });

  it('exits 3 when the entry does not resolve', async () => {
    const config = writeTempConfig({ mcpServers: { s: fixtureServer('flaky-server.js', { args: ['${TOOLRUN_TEST_UNSET}'] }) } });
    const result = await runCleanInProcess(['--config', config, 'mcp', 'doctor', 's']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toContain('✖ config      mcpServers.s.args[0]: environment variable TOOLRUN_TEST_UNSET is not set.');
  });

  it('diagnoses every server with --all (worst exit code wins)', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { zwave: fixtureServer('zwave-server.js'), crash: fixtureServer('crash-server.js') } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', '--all']);
    expect(result.exitCode).toBe(4);
    const report = JSON.parse(result.stdout);
    expect(report.servers.map((server: { server: string; verdict: string }) => [server.server, server.verdict])).toEqual([
      ['zwave', 'healthy'],
      ['crash', 'unreachable'],
    ]);
  });

  it('asks which server when several are configured', async () => {
    const config = writeTempConfig({ mcpServers: { a: fixtureServer('zwave-server.js'), b: fixtureServer('zwave-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'mcp', 'doctor']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('✖ several servers are configured (a, b): name one, or use --all');
  });
});

describe('toolrun mcp check-stdout', () => {
  it('replays a capture file (exit 1) and stdin', async () => {
    const file = join(FIXTURES, 'captures', 'not-json.ndjson');
    const result = await runInProcess(['mcp', 'check-stdout', '--file', file]);
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('✖ line 2, byte 141: not-json  "Loading config..."');
    expect(lines).toContain('3 lines · 2 JSON-RPC messages · 1 polluting line');
    expect(lines.at(-1)).toBe('Fix: write diagnostics to stderr: console.error(), not console.log() (Python: print(..., file=sys.stderr), or logging to stderr)');
    const fromStdin = await runToolrun(['--json', 'mcp', 'check-stdout', '-'], { input: readFileSync(join(FIXTURES, 'captures', 'clean.ndjson')), stdin: undefined });
    expect(fromStdin.exitCode).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ clean: true, findings: [], summary: { lines: 3, messages: 3, polluting_lines: 0 } });
  });

  it('runs a session against a server, saves the capture, and the capture replays the same', async () => {
    const config = writeTempConfig({ mcpServers: { noisy: fixtureServer('polluting-server.js') } });
    const save = join(tempDir(), 'noisy.out');
    const live = await runCleanInProcess(['--json', '--config', config, 'mcp', 'check-stdout', 'noisy', '--call', 'noisy', '--save', save]);
    expect(live.exitCode).toBe(1);
    const report = JSON.parse(live.stdout);
    expect(report.source).toEqual({ server: 'noisy', steps: ['server/discover', 'initialize', 'tools/list', 'ping', 'tools/call noisy'] });
    expect(report.findings.map((finding: { text: string }) => finding.text)).toEqual(['Loading config...', 'Server ready', 'noisy tool called']);
    expect(report.kinds['not-json']).toMatchObject({ count: 3, clients: expect.stringContaining('TS SDK 2.x: skipped silently') });
    const replayed = await runInProcess(['--json', 'mcp', 'check-stdout', '--file', save]);
    expect(JSON.parse(replayed.stdout).findings).toEqual(report.findings);
    // The recording (SPEC §11): a header, then every line sent, received and on stderr, with times.
    const [header, ...lines] = readFileSync(save, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(header).toMatchObject({ toolrun_recording: 1, server: 'noisy', command: expect.stringMatching(/polluting-server\.c?js$/), started: expect.stringMatching(/^\d{4}-/) });
    expect(
      lines
        .filter((line: { dir: string }) => line.dir === 'recv')
        .map((line: { text: string }) => line.text)
        .slice(0, 2),
    ).toEqual(['Loading config...', 'Server ready']);
    expect(lines.find((line: { dir: string; text: string }) => line.dir === 'send' && line.text.includes('"method":"tools/call"'))).toBeDefined();
    for (const line of lines) expect(line.t).toEqual(expect.any(Number));
  });

  it('a recording keeps stdout byte for byte: a line that is not UTF-8 is stored as b64 and scanned as it was', async () => {
    const config = writeTempConfig({ mcpServers: { raw: fixtureServer('polluting-server.js', { env: { RAW_BYTES: '1' } }) } });
    const save = join(tempDir(), 'raw.rec');
    const live = JSON.parse((await runCleanInProcess(['--json', '--config', config, 'mcp', 'check-stdout', 'raw', '--save', save])).stdout);
    expect(Object.keys(live.kinds)).toEqual(expect.arrayContaining(['invalid-utf8', 'crlf']));
    const replayed = JSON.parse((await runInProcess(['--json', 'mcp', 'check-stdout', '--file', save])).stdout);
    expect(replayed.findings).toEqual(live.findings);
    expect(replayed.summary).toEqual(live.summary);
    const recorded = readFileSync(save, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(recorded).toContainEqual(expect.objectContaining({ dir: 'recv', b64: Buffer.from('Caf\xe9 ready', 'latin1').toString('base64') }));
    expect(recorded).toContainEqual(expect.objectContaining({ dir: 'recv', text: 'windows line\r' }));
  });

  it('finds server-everything clean (exit 0)', async () => {
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'check-stdout', 'everything', '--call', 'get-sum', 'a=2', 'b=3']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ clean: true, source: { steps: ['server/discover', 'initialize', 'tools/list', 'ping', 'tools/call get-sum'] }, summary: { polluting_lines: 0 } });
  });

  it('exits 0 for a clean server and 4 for one that cannot be reached', async () => {
    const clean = await runCleanInProcess(['--config', join(FIXTURES, 'home.json'), 'mcp', 'check-stdout', 'zwave']);
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout.split('\n').at(-1)).toBe('✔ stdout is clean JSON-RPC');
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 0 }, mcpServers: { crash: fixtureServer('crash-server.js') } });
    const down = await runCleanInProcess(['--config', config, 'mcp', 'check-stdout', 'crash']);
    expect(down.exitCode).toBe(4);
    expect(down.stdout).toContain('The server wrote nothing to stdout before it failed.');
  });

  it('rejects a missing capture file and a missing source', async () => {
    const missing = await runInProcess(['mcp', 'check-stdout', '--file', 'nope.ndjson']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe('✖ capture file not found: nope.ndjson; check the path');
    const none = await runInProcess(['mcp', 'check-stdout']);
    expect(none.exitCode).toBe(2);
  });
});
