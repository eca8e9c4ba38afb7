import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/process-tree.js';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';

type Step = { id: string; status: string; finding: string; fix?: string; details: string[]; data: Record<string, unknown> };
const stepsOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout).steps as Step[]).map((step) => [step.id, step]));
const POSTGRES = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-postgres', 'dist', 'index.js');

const readLog = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n') : []);

describe('one signal ends servers politely (stdin closed, then SIGTERM), for every command', () => {
  it.each([
    ['exec', 'SIGINT', 130, ['exec', 'rec:wait']],
    ['exec', 'SIGTERM', 143, ['exec', 'rec:wait']],
    ['mcp doctor', 'SIGHUP', 129, ['mcp', 'doctor', 'rec', '--call', 'wait']],
  ] as const)('%s, %s: the server sees its stdin close', async (_name, signal, code, args) => {
    const log = join(tempDir(), 'shutdown.log');
    const config = writeTempConfig({ mcpServers: { rec: fixtureServer('shutdown-recorder-server.js', { env: { SHUTDOWN_LOG: log } }) } });
    const marker = newProcessMarker();
    const run = runToolrun(['--config', config, ...args], { env: marker.env });
    await waitFor(() => readLog(log).includes('call'));
    run.kill(signal);
    const result = await run;
    expect(result.exitCode).toBe(code);
    expect(readLog(log)).toEqual(['call', 'stdin-eof']);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('a server that stays after stdin closes gets SIGTERM, not SIGKILL', async () => {
    const log = join(tempDir(), 'shutdown.log');
    const config = writeTempConfig({ mcpServers: { rec: fixtureServer('shutdown-recorder-server.js', { env: { SHUTDOWN_LOG: log, IGNORE_STDIN_EOF: '1' } }) } });
    const run = runToolrun(['--config', config, 'exec', 'rec:wait']);
    await waitFor(() => readLog(log).includes('call'));
    run.kill('SIGINT');
    expect((await run).exitCode).toBe(130);
    expect(readLog(log)).toEqual(['call', 'stdin-eof', 'SIGTERM']);
  });
});

describe('descendants outside the process group', () => {
  it('doctor ends a setsid() helper and reports it as a problem', async () => {
    const pidFile = join(tempDir(), 'helper.pid');
    const config = writeTempConfig({ mcpServers: { daemon: fixtureServer('setsid-helper-server.js', { env: { HELPER_PID_FILE: pidFile } }) } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'daemon']);
    expect(result.exitCode).toBe(1);
    const helper = Number(readFileSync(pidFile, 'utf8'));
    expect(stepsOf(result.stdout).shutdown).toMatchObject({
      status: 'fail',
      finding: expect.stringMatching(new RegExp(`^exited when its stdin closed \\(\\d+ ms\\), but left 1 process running: pid ${helper} \\(.*setInterval.*\\); toolrun ended it$`)),
      fix: 'end every child process when the server exits: a detached (setsid) helper outlives the server in other clients',
    });
    expect(isProcessAlive(helper)).toBe(false);
  });

  it('exec leaves no helper running either', async () => {
    const pidFile = join(tempDir(), 'helper.pid');
    const config = writeTempConfig({ mcpServers: { daemon: fixtureServer('setsid-helper-server.js', { env: { HELPER_PID_FILE: pidFile } }) } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'daemon:ping_helper']);
    expect(result.exitCode).toBe(0);
    expect(isProcessAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});

describe('a server that exits during a call', () => {
  it('exec says how it exited, with its stderr tail', async () => {
    const config = writeTempConfig({ mcpServers: { crashy: fixtureServer('exit-mid-call-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'crashy:work']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        "✖ work: MCP server 'crashy' exited with code 3 during the call to 'work'; its stderr ends: FATAL: out of widgets (widget pool exhausted)",
        '  MCP server stderr (last 2 lines):',
        '    exit-mid-call: processing the request',
        '    FATAL: out of widgets (widget pool exhausted)',
      ]),
    );
    const json = await runCleanInProcess(['--json', '--config', config, 'exec', 'crashy:work']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      success: false,
      error_kind: 'tool_error',
      server_stderr: ['exit-mid-call: processing the request', 'FATAL: out of widgets (widget pool exhausted)'],
    });
  });

  it('time stops at the crash and keeps failures out of the latency stats', async () => {
    const config = writeTempConfig({ mcpServers: { crashy: fixtureServer('exit-mid-call-server.js', { env: { CRASH_AFTER: '7' } }) } });
    const result = await runCleanInProcess(['--json', '--config', config, 'time', 'crashy:work', '-n', '200', '--warmup', '2']);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.stats).toMatchObject({ count: 6, ok: 5, errors: 1 });
    expect(report.durations_ms).toHaveLength(5);
    expect(report.stopped).toBe("stopped after 6 of 200 calls: MCP server 'crashy' exited with code 3 during the call to 'work'; its stderr ends: FATAL: out of widgets (widget pool exhausted)");
  });
});

describe('causes named in stderr', () => {
  it('doctor reads every stderr line: a cause before 30 lines of chatter is still found', async () => {
    const config = writeTempConfig({ mcpServers: { chatty: fixtureServer('chatty-stderr-server.js') } });
    const steps = stepsOf((await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'chatty'])).stdout);
    expect(steps.stderr).toMatchObject({
      status: 'warn',
      // The error-like line before the last 20 is shown too (issue #19 item 3).
      finding: '31 lines (the last 20 shown, and 1 error-like before them), 1 error-like (marked !)',
      fix: 'start the service the server needs at 127.0.0.1:5999, or point the server at the right address',
      data: { line_count: 31, error_lines: 1 },
    });
  });

  it('a server whose backend is down is reported with that cause, soon, without connectTimeoutMs advice', async () => {
    const config = writeTempConfig({ mcpServers: { cache: fixtureServer('service-down-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'cache:get']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('  Reason: the server could not connect to 127.0.0.1:6399 (connection refused: nothing listens there)');
    expect(result.stderr).toContain('  Check: start the service the server needs at 127.0.0.1:6399, or point the server at the right address');
    expect(result.stderr).not.toContain('connectTimeoutMs');
  });

  it('a refused protocol version is not retried and says so', async () => {
    const starts = join(tempDir(), 'starts');
    const config = writeTempConfig({ mcpServers: { future: fixtureServer('protocol-refusing-server.js', { env: { START_COUNT_FILE: starts } }) } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'future:anything']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'future'");
    expect(result.stderr).toMatch(/ {2}Reason: the server refused protocol version [\d-]+ \(it supports 2099-01-01\)/);
    expect(readLog(starts)).toEqual(['start']);
  });
});

describe('a capability advertised but not served (backend down)', () => {
  it('is a doctor problem with the fix, and mcp list --check agrees', async () => {
    const config = writeTempConfig({ mcpServers: { db: fixtureServer('backend-down-server.js') } });
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'db']);
    expect(doctor.exitCode).toBe(1);
    expect(JSON.parse(doctor.stdout).verdict).toBe('problems');
    expect(stepsOf(doctor.stdout).tools).toMatchObject({
      status: 'fail',
      finding: '1 tool · 0 prompts · resources/list failed: connect ECONNREFUSED 127.0.0.1:5432',
      fix: 'start the service the server needs at 127.0.0.1:5432, or point the server at the right address',
    });
    const list = await runCleanInProcess(['--json', '--config', config, 'mcp', 'list', '--check']);
    expect(list.exitCode).toBe(1);
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({
      status: 'problem',
      prompts: 0,
      error: 'resources/list failed: connect ECONNREFUSED 127.0.0.1:5432',
      fix: 'start the service the server needs at 127.0.0.1:5432, or point the server at the right address',
    });
    expect(JSON.parse(list.stdout).servers[0]).not.toHaveProperty('resources');
    // The table: ✖ where the listing failed (the error column says why), the count where it worked.
    const table = await runCleanInProcess(['--config', config, 'mcp', 'list', '--check']);
    expect(table.stdout.split('\n')[1]).toMatch(/^db\s+stdio\s+✖ problem\s+1\s+✖\s+0\s+2025-11-25\s+\d+ ms .*\(resources\/list failed: connect ECONNREFUSED 127\.0\.0\.1:5432\)$/);
  });

  it('holds for the real @modelcontextprotocol/server-postgres with no database', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the driver gets ECONNREFUSED at once.
    const config = writeTempConfig({ mcpServers: { pg: { command: process.execPath, args: [POSTGRES, 'postgresql://user:secret@127.0.0.1:9/db'] } } });
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'pg']);
    expect(doctor.exitCode).toBe(1);
    expect(stepsOf(doctor.stdout).tools).toMatchObject({ status: 'fail', fix: 'start the service the server needs at 127.0.0.1:9, or point the server at the right address' });
    const list = await runCleanInProcess(['--config', config, 'mcp', 'list', '--check']);
    expect(list.exitCode).toBe(1);
    expect(list.stdout).toContain('✖ problem');
    expect(list.stderr).toContain('✖ pg: start the service the server needs at 127.0.0.1:9, or point the server at the right address');
  });
});

describe('arguments and variables a user gets wrong', () => {
  it('refuses a VS Code ${input:…} variable instead of sending it as text', async () => {
    const config = writeTempConfig({ mcpServers: { gh: fixtureServer('zwave-server.js', { env: { GITHUB_TOKEN: '${input:github_token}' } }) } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'gh:list_devices']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('mcpServers.gh.env.GITHUB_TOKEN: ${input:github_token} is a VS Code variable that only VS Code can fill in; toolrun does not support it.');
  });

  it('asks "did you mean" for an argument that differs from a property by case or _', async () => {
    const config = writeTempConfig({
      tools: [{ name: 'search', description: 'Search', parameters: { type: 'object', properties: { per_page: { type: 'integer' } } }, implementation: { type: 'mock', mock_response: [] } }],
    });
    const result = await runCleanInProcess(['--config', config, 'exec', 'search', 'perPage:=5']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("✖ search: Invalid parameters: unknown argument 'perPage' (did you mean 'per_page'?)");
  });
});

describe('noise is summarised', () => {
  it('warns about a polluting line once per pattern, then counts the repeats', async () => {
    const config = writeTempConfig({ mcpServers: { noisy: fixtureServer('polluting-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'time', 'noisy:noisy', '-n', '20', '--warmup', '0']);
    expect(result.exitCode).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('is not JSON-RPC'));
    expect(warnings).toHaveLength(3);
    expect(warnings.filter((line) => line.includes('noisy tool called'))).toHaveLength(1);
    expect(result.stderr).toContain('⚠ [noisy] 19 more non-JSON-RPC stdout lines like those above were skipped (toolrun mcp check-stdout noisy lists every line)');
  });
});
