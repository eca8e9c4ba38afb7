import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClean } from '../helpers/processes.js';
import { FIXTURES } from '../helpers/run-toolrun.js';
import { writeTempConfig } from '../helpers/temp-config.js';

type Check = { id: string; verdict: string; message: string; evidence: { detail: string; line?: number; frame?: unknown }[] };
const hostile = (mode: string) => ({ command: process.execPath, args: [join(FIXTURES, 'servers', 'conform-hostile-server.js'), mode] });
const config = writeTempConfig({
  mcpServers: {
    flood: hostile('flood'),
    hang: hostile('hang'),
    'wrong-ids': hostile('wrong-ids'),
    'invalid-json': hostile('invalid-json'),
    stay: hostile('stay'),
    pollute: { command: process.execPath, args: [join(FIXTURES, 'servers', 'polluting-server.js')] },
    missing: { command: '/nonexistent/conform-server', args: [] },
    crash: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
  },
});

async function conform(server: string, ...extra: string[]) {
  const result = await runClean(['--json', '--config', config, '--timeout', '800', 'mcp', 'conform', server, '--deadline', '15000', ...extra]);
  const report = result.stdout ? JSON.parse(result.stdout) : undefined;
  const check = (id: string): Check => report.checks.find((candidate: Check) => candidate.id === id);
  return { ...result, report, check };
}

// Each hostile server is a failed check with evidence, never a crash or a hang; the run ends and leaves nothing running.
describe.concurrent('toolrun mcp conform: servers that break the wire', () => {
  it('a server that floods stdout: jsonrpc.responses fails, toolrun stops reading, the server still exits', async () => {
    const { exitCode, check } = await conform('flood');
    expect(exitCode).toBe(1);
    expect(check('jsonrpc.responses')).toMatchObject({ verdict: 'fail', message: 'the server sent more than 5000 frames; toolrun stopped reading it' });
    expect(check('stdio.shutdown').verdict).toBe('pass');
  });

  it('answers with ids never sent: jsonrpc.responses names the id', async () => {
    const { exitCode, check } = await conform('wrong-ids');
    expect(exitCode).toBe(1);
    const responses = check('jsonrpc.responses');
    expect(responses.verdict).toBe('fail');
    expect(responses.message).toMatch(/^\d+ responses? matched no request: an answer to id 10\d\d, which toolrun never sent$/);
    expect(responses.evidence[0]).toMatchObject({ detail: expect.stringContaining('which toolrun never sent'), frame: { jsonrpc: '2.0', result: {} } });
  });

  it('answers with a cut JSON line: stdout purity fails with its line number', async () => {
    const { exitCode, check } = await conform('invalid-json');
    expect(exitCode).toBe(1);
    expect(check('stdio.stdout-purity')).toMatchObject({ verdict: 'fail', message: expect.stringMatching(/^1 stdout line is not JSON-RPC; first, line \d+: not JSON \(log to stderr instead\)$/) });
    expect(check('stdio.stdout-purity').evidence[0]).toMatchObject({ detail: expect.stringContaining('"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":'), line: expect.any(Number) });
  });

  it('console.log on stdout: stdout purity fails naming each line', async () => {
    const { exitCode, check } = await conform('pollute');
    expect(exitCode).toBe(1);
    const purity = check('stdio.stdout-purity');
    expect(purity.message).toMatch(/^\d+ stdout lines are not JSON-RPC; first, line 1: not JSON/);
    expect(purity.evidence[0]).toEqual({ detail: 'not JSON: "Loading config..."', line: 1 });
  });

  it('a server that stays up after stdin closes fails the shutdown check', async () => {
    const { exitCode, check } = await conform('stay');
    expect(exitCode).toBe(1);
    expect(check('stdio.shutdown')).toMatchObject({ verdict: 'fail', message: 'still running 2000 ms after stdin closed: toolrun had to send SIGTERM' });
  });

  it('a server that hangs after initialize: checks fail at their timeout and the run ends', async () => {
    const { exitCode, report } = await conform('hang');
    expect([0, 1]).toContain(exitCode);
    expect(report.checks.every((check: Check) => ['pass', 'fail', 'skip', 'warn'].includes(check.verdict))).toBe(true);
  });

  it('a command that does not exist, or a server that exits at once, is unreachable: exit 4', async () => {
    const missing = await conform('missing');
    expect(missing.exitCode).toBe(4);
    expect(missing.report.unreachable).toBe("command not found: '/nonexistent/conform-server' (not on PATH, or the file does not exist)");
    const crash = await conform('crash');
    expect(crash.exitCode).toBe(4);
    expect(crash.report.unreachable).toMatch(/the server exited with code 3/);
  });
});

describe('toolrun mcp conform: bad usage', () => {
  it('an unknown profile, a --call without a tool, an unknown server and a --junit folder that does not exist are exit 2', async () => {
    const profile = await runClean(['--config', config, 'mcp', 'conform', 'hang', '--profile', 'toolrun@9']);
    expect(profile).toMatchObject({ exitCode: 2, stdout: '' });
    expect(profile.stderr).toContain("unknown profile 'toolrun@9'; known: toolrun@1");
    const call = await runClean(['--config', config, 'mcp', 'conform', 'hang', '--call', 'a=1']);
    expect(call.exitCode).toBe(2);
    expect(call.stderr).toContain('--call a=1: name the tool first (--call TOOL key=value)');
    const unknown = await runClean(['--config', config, 'mcp', 'conform', 'nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown MCP server 'nope'");
    const junit = await runClean(['--config', config, 'mcp', 'conform', 'hang', '--junit', '/nonexistent-folder/x.xml']);
    expect(junit.exitCode).toBe(2);
    expect(junit.stderr).toContain('--junit /nonexistent-folder/x.xml: the folder /nonexistent-folder does not exist');
  });
});
