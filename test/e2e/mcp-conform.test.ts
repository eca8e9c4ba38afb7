import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSessionHttpServer, startV2HttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { runClean } from '../helpers/processes.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { hasSystemTool } from '../helpers/system-tools.js';
import { FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

type Check = { id: string; verdict: string; message: string; evidence: { detail: string; line?: number; frame?: unknown }[] };
const hostile = (mode: string) => ({ command: process.execPath, args: [join(FIXTURES, 'servers', 'conform-hostile-server.js'), mode] });
const config = writeTempConfig({
  mcpServers: {
    flood: hostile('flood'),
    hang: hostile('hang'),
    'wrong-ids': hostile('wrong-ids'),
    swap: hostile('swap'),
    v2: { command: process.execPath, args: [fixtureServerScript('v2-server.js')] },
    'invalid-json': hostile('invalid-json'),
    stay: hostile('stay'),
    stubborn: { command: process.execPath, args: [fixtureServerScript('ignore-sigterm-server.js')] },
    pollute: { command: process.execPath, args: [fixtureServerScript('polluting-server.js')] },
    missing: { command: '/nonexistent/conform-server', args: [] },
    crash: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
    clean: { command: process.execPath, args: [join(FIXTURES, 'servers', 'conform-clean-server.js')] },
    lying: { command: process.execPath, args: [join(FIXTURES, 'servers', 'conform-lying-server.js')] },
    'no-input-schema': { command: process.execPath, args: [join(FIXTURES, 'servers', 'conform-no-input-schema-server.js')] },
    everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
  },
});
const verdicts = (report: { checks: Check[] }, verdict: string) => report.checks.filter((check) => check.verdict === verdict).map((check) => check.id);

// 800 ms keeps the hanging servers' cases short; the verdicts on working servers use a timeout a loaded
// CI machine cannot reach (a check that hits toolrun's own timeout is not judged, so it would turn to skip).
const conform = (server: string, ...extra: string[]) => conformWithin(800, server, ...extra);
const conformPatiently = (server: string, ...extra: string[]) => conformWithin(5000, server, ...extra);

async function conformWithin(timeoutMs: number, server: string, ...extra: string[]) {
  return judged(await runCleanInProcess(['--json', '--config', config, '--timeout', String(timeoutMs), 'mcp', 'conform', server, '--deadline', '30000', ...extra]));
}

// conform() in a spawned toolrun: the servers that outlive stdin's end, see their test.
async function conformSpawned(server: string) {
  return judged(await runClean(['--json', '--config', config, '--timeout', '800', 'mcp', 'conform', server, '--deadline', '30000']));
}

function judged<T extends { stdout: string }>(result: T) {
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

  it('answers out of order: JSON-RPC allows it, answers are matched by id and nothing fails', async () => {
    // Not about timeouts: the patient limit, as its answers come late on a loaded machine running five conform runs at once.
    const { exitCode, report } = await conformPatiently('swap');
    expect(exitCode).toBe(0);
    expect(verdicts(report, 'fail')).toEqual([]);
    expect(report.checks.find((check: Check) => check.id === 'jsonrpc.responses').message).toBe('every response matched a request by id');
  });

  it('answers with a cut JSON line: stdout purity fails with its line number', async () => {
    const { exitCode, check } = await conform('invalid-json');
    expect(exitCode).toBe(1);
    expect(check('stdio.stdout-purity')).toMatchObject({ verdict: 'fail', message: expect.stringMatching(/^2 stdout lines are not JSON-RPC; first, line 3: not JSON \(log to stderr instead\)$/) });
    expect(check('ping')).toMatchObject({ verdict: 'fail', message: 'ping got no answer within 800 ms' });
    expect(check('stdio.stdout-purity').evidence[0]).toMatchObject({ detail: expect.stringContaining('"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":'), line: expect.any(Number) });
  });

  it('console.log on stdout: stdout purity fails naming each line', async () => {
    const { exitCode, check } = await conform('pollute');
    expect(exitCode).toBe(1);
    const purity = check('stdio.stdout-purity');
    expect(purity.message).toMatch(/^\d+ stdout lines are not JSON-RPC; first, line 1: not JSON/);
    expect(purity.evidence[0]).toEqual({ detail: 'not JSON: "Loading config..."', line: 1 });
  });

  it('a server that stays up after stdin closes gets a shutdown warning; one that ignores SIGTERM too fails it', async () => {
    // Spawned: run in-process (in vitest's worker), stay exited 1, and the HTTP test after it then saw the v2 server fall back to 2025-11-25.
    const [stay, stubborn] = await Promise.all([conformSpawned('stay'), conformSpawned('stubborn')]);
    expect(stay.exitCode).toBe(0);
    expect(stay.check('stdio.shutdown')).toMatchObject({ verdict: 'warn', message: 'still running 2000 ms after stdin closed: toolrun had to send SIGTERM (exit when stdin ends)' });
    expect(stubborn.exitCode).toBe(1);
    expect(stubborn.check('stdio.shutdown')).toMatchObject({
      verdict: 'fail',
      message: 'still running 2000 ms after stdin closed; it ignored SIGTERM too, so toolrun had to send SIGKILL (exit when stdin ends)',
    });
  });

  it('a server that hangs after initialize: the check under way fails at the deadline, the rest are skipped, what was recorded is still judged', async () => {
    // Spawned: in-process, next to this block's other concurrent runs in the same worker, it exited 4 or 1 twice at load ~10 (unexplained; timing-bound: 800 ms, 2.5 s).
    const result = await runClean(['--json', '--config', config, '--timeout', '800', 'mcp', 'conform', 'hang', '--deadline', '2500']);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    // Which check the deadline lands in depends on how long the server took to start: the checks
    // before it fail on their unanswered requests, the one under way on the deadline.
    const failed: Check[] = report.checks.filter((check: Check) => check.verdict === 'fail');
    expect(failed.at(-1)!.message).toBe("did not finish before the run's deadline (2.5 s): the server answers too slowly or not at all (raise --deadline to wait longer)");
    for (const check of failed.slice(0, -1)) expect(check.message).toMatch(/no answer within 800 ms/);
    expect(report.checks.find((check: Check) => check.id === 'ping')).toMatchObject({ verdict: 'skip', message: "the run's deadline (2.5 s) had passed; raise --deadline" });
    expect(verdicts(report, 'pass')).toEqual(expect.arrayContaining(['schema.frames', 'jsonrpc.responses', 'stdio.stdout-purity', 'stdio.shutdown']));
    // That the run stopped at the deadline is what the messages above say (the check under way failed
    // on it, ping was skipped for it); no clock is compared, the machine may be loaded.
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
    const profile = await runCleanInProcess(['--config', config, 'mcp', 'conform', 'hang', '--profile', 'toolrun@9']);
    expect(profile).toMatchObject({ exitCode: 2, stdout: '' });
    expect(profile.stderr).toContain("unknown profile 'toolrun@9'; known: toolrun@1");
    const call = await runCleanInProcess(['--config', config, 'mcp', 'conform', 'hang', '--call', 'a=1']);
    expect(call.exitCode).toBe(2);
    expect(call.stderr).toContain('--call a=1: name the tool first (--call TOOL key=value)');
    const unknown = await runCleanInProcess(['--config', config, 'mcp', 'conform', 'nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown MCP server 'nope'");
    const junit = await runCleanInProcess(['--config', config, 'mcp', 'conform', 'hang', '--junit', '/nonexistent-folder/x.xml']);
    expect(junit.exitCode).toBe(2);
    expect(junit.stderr).toContain('--junit /nonexistent-folder/x.xml: the folder /nonexistent-folder does not exist');
  });
});

describe.concurrent('toolrun mcp conform: verdicts', () => {
  it('a clean server passes every check of toolrun@2 (the default; extensions.apps skipped: it declares none), its tools called with generated arguments (exit 0)', async () => {
    const { exitCode, report } = await conformPatiently('clean', '--call-all');
    expect(exitCode).toBe(0);
    expect(report.profile).toEqual({ name: 'toolrun', version: 2 });
    expect(report.summary).toEqual({ pass: 24, fail: 0, warn: 0, skip: 1 });
    expect(report.calls.map((call: { tool: string; generated: boolean }) => [call.tool, call.generated])).toEqual([
      ['echo', true],
      ['slow.job', true],
    ]);
  });

  it('a server that answers unknown and unadvertised methods with a result fails capability honesty and unknown-method', async () => {
    const { exitCode, report, check } = await conformPatiently('lying');
    expect(exitCode).toBe(1);
    expect(verdicts(report, 'fail')).toEqual(['lifecycle.version-negotiation', 'capabilities.honest', 'jsonrpc.unknown-method', 'schema.frames']);
    expect(check('jsonrpc.unknown-method').message).toBe('toolrun/no-such-method answered with a result instead of error -32601');
    expect(check('capabilities.honest').evidence[0]).toMatchObject({
      detail: 'resources/list (capability "resources" not advertised) answered with a result instead of error -32601',
      frame: { result: {} },
    });
  });

  it('a tool listed without inputSchema fails tools.input-schema and schema.frames, naming the path', async () => {
    const { exitCode, check } = await conformPatiently('no-input-schema');
    expect(exitCode).toBe(1);
    expect(check('tools.input-schema')).toMatchObject({ verdict: 'fail', message: 'tool "now" has no inputSchema (result.tools[1].inputSchema)' });
    expect(check('schema.frames').evidence[0]).toMatchObject({ path: 'result.tools[1]', detail: expect.stringContaining("must have required property 'inputSchema'") });
  });

  it("--call-all never blames the server for toolrun's own --timeout: a call that outlives it and the shutdown after it are not judged", async () => {
    // trigger-long-running-operation runs 10 s by default: 3 s of --timeout always ends it first.
    const { exitCode, report, check } = await conformWithin(3000, 'everything', '--call-all');
    expect(exitCode).toBe(0);
    expect(check('tools.call-results').message).toContain('"trigger-long-running-operation" ran longer than --timeout (3000 ms) and was cancelled');
    expect(check('stdio.shutdown').verdict).not.toBe('warn');
    expect(verdicts(report, 'warn')).toEqual(['tools.unknown-tool', 'params.invalid', 'resources.unknown-uri', 'pagination.cursors']);
  });

  // Alone: on stdio, 3 s of silence to server/discover is taken for a 2025 server, and a loaded machine can start node that slowly.
  it.sequential('a 2026-07-28 server over stdio (v2 SDK): discover handshake, version refusal with -32022, no ping', async () => {
    const { exitCode, report, check } = await conformPatiently('v2', '--call', 'add', 'a:=1', 'b:=2');
    expect(exitCode).toBe(0);
    expect(report.protocolVersion).toBe('2026-07-28');
    expect(check('lifecycle.handshake').message).toBe('server/discover answered: MCP 2026-07-28, v2-fixture 2.0.0');
    expect(check('ping')).toMatchObject({ verdict: 'skip' });
    expect(check('tools.call-results').verdict).toBe('pass');
  });

  it('server-everything passes what it meets; its real deviations are warnings with evidence (exit 0)', async () => {
    const { exitCode, report, check } = await conformPatiently('everything');
    expect(exitCode).toBe(0);
    expect(report.protocolVersion).toBe('2025-11-25');
    expect(verdicts(report, 'fail')).toEqual([]);
    // Its resource-prompt refuses toolrun's made-up resource id: toolrun's value, not the server's fault.
    expect(verdicts(report, 'warn')).toEqual(['tools.unknown-tool', 'params.invalid', 'resources.unknown-uri', 'pagination.cursors']);
    expect(check('prompts.get').message).not.toContain('placeholder "toolrun"');
    expect(check('resources.unknown-uri').evidence[0]).toMatchObject({ path: 'error.code', frame: { error: { code: -32602 } } });
    expect(check('schema.frames').message).toMatch(/^\d+ frames received, all valid against the 2025-11-25 schema$/);
  });
});

describe('toolrun mcp conform: reports', () => {
  it('--junit writes one testcase per check, valid XML; in GitHub Actions failures are annotations on stderr, stdout keeps the table', async () => {
    const junit = join(tempDir(), 'conform.xml');
    const result = await runCleanInProcess(['--config', config, 'mcp', 'conform', 'no-input-schema', '--junit', junit], { env: { GITHUB_ACTIONS: 'true' } });
    expect(result.exitCode).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe('toolrun mcp conform no-input-schema (stdio, 2025-11-25, profile toolrun@2)');
    expect(result.stdout).not.toContain('::error');
    expect(result.stderr).toMatch(/^::error title=toolrun@2%3A tools\.input-schema::/m);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(25); // toolrun@2: extensions.apps, skipped
    expect(xml).toContain('<failure message="tool &quot;now&quot; has no inputSchema (result.tools[1].inputSchema)"');
    // The rest holds without xmllint; only the validation against the JUnit XSD needs it.
    if (hasSystemTool('xmllint', 'conform --junit validated against the JUnit XSD', 'libxml2-utils'))
      execFileSync('xmllint', ['--noout', '--schema', join(ROOT, 'test', 'fixtures', 'junit', 'junit-common.xsd'), junit], { stdio: 'pipe' });
  });
});

describe('toolrun mcp conform over Streamable HTTP', () => {
  let modern: HttpFixture;
  let legacy: HttpFixture;
  beforeAll(async () => {
    [modern, legacy] = await Promise.all([startV2HttpServer(), startSessionHttpServer()]);
  });
  afterAll(async () => {
    await Promise.all([modern?.stop(), legacy?.stop()]);
  });

  it('checks a 2026-07-28 server and a 2025 session server; the stdio checks are skipped', async () => {
    const http = writeTempConfig({ mcpServers: { modern: { url: modern.url }, legacy: { url: legacy.url } } });
    const [modernRun, legacyRun] = await Promise.all(['modern', 'legacy'].map((server) => runCleanInProcess(['--json', '--config', http, '--timeout', '3000', 'mcp', 'conform', server])));
    const modernReport = JSON.parse(modernRun!.stdout);
    expect(modernReport).toMatchObject({ transport: 'http', protocolVersion: '2026-07-28' });
    expect(modernReport.checks.find((check: Check) => check.id === 'lifecycle.version-negotiation')).toMatchObject({
      verdict: 'pass',
      message: 'tools/list in 1999-01-01 was answered -32022 listing 2026-07-28',
    });
    expect(verdicts(modernReport, 'fail')).toEqual([]);
    const legacyReport = JSON.parse(legacyRun!.stdout);
    expect(legacyReport).toMatchObject({ transport: 'http', protocolVersion: '2025-11-25' });
    expect(verdicts(legacyReport, 'fail')).toEqual([]);
    expect(legacyReport.checks.find((check: Check) => check.id === 'stdio.shutdown')).toMatchObject({ verdict: 'skip', message: 'applies to stdio servers only' });
  });

  it('conform, doctor and snapshot take the server as a URL or -- COMMAND [ARGS…], as the GitHub Action does', async () => {
    const empty = writeTempConfig({ mcpServers: {} });
    const clean = join(FIXTURES, 'servers', 'conform-clean-server.js');
    const [byUrl, byCommand, asOneWord, doctor, snapshot, evil] = await Promise.all([
      runCleanInProcess(['--json', '--config', empty, '--timeout', '3000', 'mcp', 'conform', legacy.url]),
      runCleanInProcess(['--json', '--config', empty, 'mcp', 'conform', '--', process.execPath, clean]),
      // The Action passes its `server` input as one word after --.
      runCleanInProcess(['--json', '--config', empty, 'mcp', 'conform', '--', `${process.execPath} ${clean}`]),
      runCleanInProcess(['--json', '--config', empty, 'mcp', 'doctor', '--', process.execPath, clean]),
      runCleanInProcess(['--config', empty, 'mcp', 'snapshot', '--', process.execPath, clean]),
      runCleanInProcess(['--config', empty, 'mcp', 'conform', '--', '--config=evil.json']),
    ]);
    expect(byUrl.exitCode).toBe(0);
    expect(JSON.parse(byUrl.stdout)).toMatchObject({ transport: 'http', protocolVersion: '2025-11-25' });
    for (const run of [byCommand, asOneWord]) {
      expect(run.exitCode).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ server: 'conform-clean-server', transport: 'stdio' });
    }
    expect(doctor.exitCode).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({ server: 'conform-clean-server' });
    expect(snapshot.exitCode).toBe(0);
    expect(JSON.parse(snapshot.stdout)).toHaveProperty('tools');
    expect(evil.exitCode).toBe(2);
  });
});
