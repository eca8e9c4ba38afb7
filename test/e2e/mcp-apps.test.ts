import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFixture, startV2HttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

/** Issue 49 item 3: `toolrun mcp apps`, the MCP Apps extension's rules, on official App servers and on each reported bug. */

interface Finding {
  rule: string;
  severity: string;
  tool?: string;
  path: string;
  message: string;
}
interface Report {
  servers: Array<{ server: string; extension: boolean; tools: Array<{ name: string; resourceUri: string | null; visibility: unknown }>; resources: Array<Record<string, unknown>> }>;
  findings: Finding[];
  errors: number;
}

const official = (name: string) => join(ROOT, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
const APPS_SERVER = fixtureServerScript('apps-server.js');
const V2_SERVER = fixtureServerScript('v2-server.js');

async function apps(args: string[], env: Record<string, string> = {}): Promise<{ exitCode: number; report: Report; stderr: string }> {
  const result = await runInProcess(['--json', 'mcp', 'apps', ...args], { env });
  return { exitCode: result.exitCode, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

/** What a finding says, in a line a test can compare: severity, rule, tool or place. */
const brief = (report: Report) => report.findings.map((finding) => `${finding.severity} ${finding.rule} ${finding.tool ?? finding.path}`);

describe('mcp apps on the official example App servers (stdio): no false alarm', () => {
  it('server-basic-vanillajs: its tool, its ui:// resource, no finding', async () => {
    const { exitCode, report } = await apps(['--', process.execPath, official('server-basic-vanillajs'), '--stdio']);
    expect(exitCode).toBe(0);
    expect(report.servers[0]!.tools).toEqual([{ name: 'get-time', resourceUri: 'ui://get-time/mcp-app.html', visibility: ['model', 'app'] }]);
    expect(report.servers[0]!.resources[0]).toMatchObject({ uri: 'ui://get-time/mcp-app.html', listed: true, mimeType: 'text/html;profile=mcp-app', csp: null });
    expect(report.findings).toEqual([]);
  });

  it('server-map and server-pdf: no error or warning; the CSP declared on the read answer only is a note', async () => {
    for (const name of ['server-map', 'server-pdf']) {
      const { exitCode, report } = await apps(['--', process.execPath, official(name), '--stdio']);
      expect(exitCode).toBe(0);
      expect(report.errors).toBe(0);
      expect(report.findings.map((finding) => `${finding.severity} ${finding.rule}`)).toEqual(['note apps/csp-list-read']);
    }
  });

  it("server-pdf's App-only tools are listed with their visibility", async () => {
    const { report } = await apps(['--', process.execPath, official('server-pdf'), '--stdio']);
    expect(report.servers[0]!.tools).toContainEqual({ name: 'save_pdf', resourceUri: null, visibility: ['app'] });
    expect(report.servers[0]!.tools).toContainEqual({ name: 'display_pdf', resourceUri: 'ui://pdf-viewer/mcp-app.html', visibility: ['model', 'app'] });
  });
});

describe('mcp apps claims the extension at the handshake, and only mcp apps does', () => {
  it('a server that lists its App tool only to a client claiming io.modelcontextprotocol/ui shows it to mcp apps, not to mcp snapshot', async () => {
    const { exitCode, report } = await apps(['--', process.execPath, APPS_SERVER], { APPS_CASE: 'good' });
    expect(exitCode).toBe(0);
    expect(report.servers[0]).toMatchObject({ server: 'apps-server', extension: true, tools: [{ name: 'show_weather', resourceUri: 'ui://weather/dashboard.html' }] });
    expect(report.findings).toEqual([]);
    const snapshot = await runInProcess(['mcp', 'snapshot', '--', process.execPath, APPS_SERVER], { env: { APPS_CASE: 'good' } });
    expect(snapshot.exitCode).toBe(0);
    expect((JSON.parse(snapshot.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['ping_weather']);
  });
});

describe('what the claim shows stays out of the tool index', () => {
  it('mcp apps records no tools in the index; a plain listing records what every command sees', async () => {
    const cache = tempDir();
    const config = writeTempConfig({ servers: { weather: fixtureServer('apps-server.js', { env: { APPS_CASE: 'good' } }) } });
    const indexFile = join(cache, 'toolrun', 'tool-index.json');
    const indexed = () =>
      existsSync(indexFile) ? Object.values((JSON.parse(readFileSync(indexFile, 'utf8')) as { servers: Record<string, { tools: string[] }> }).servers).flatMap((entry) => entry.tools) : [];
    expect((await runInProcess(['--config', config, 'mcp', 'apps', 'weather'], { env: { XDG_CACHE_HOME: cache } })).exitCode).toBe(0);
    expect(indexed()).toEqual([]);
    expect((await runInProcess(['--config', config, 'list'], { env: { XDG_CACHE_HOME: cache } })).exitCode).toBe(0);
    expect(indexed()).toEqual(['ping_weather']);
  });
});

describe('the claim in the 2026-07-28 era', () => {
  it("mcp apps sends io.modelcontextprotocol/ui in each request's client capabilities; mcp snapshot does not", async () => {
    const folder = tempDir();
    const spy = join(folder, 'spy.mjs');
    // A stdio pass-through that keeps every byte the client writes, so the test reads what toolrun sent.
    writeFileSync(
      spy,
      `import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const child = spawn(process.execPath, [process.argv[2]], { stdio: ['pipe', 'inherit', 'inherit'] });
process.stdin.on('data', (chunk) => { appendFileSync(process.argv[3], chunk); child.stdin.write(chunk); });
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
`,
    );
    const sent = (log: string) => readFileSync(log, 'utf8');
    const appsLog = join(folder, 'apps.log');
    const { exitCode } = await apps(['--protocol', '2026-07-28', '--', process.execPath, spy, V2_SERVER, appsLog], { APPS: '1', LEGACY: 'reject' });
    expect(exitCode).toBe(0);
    expect(sent(appsLog)).toContain('"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}');
    const snapshotLog = join(folder, 'snapshot.log');
    const snapshot = await runInProcess(['--protocol', '2026-07-28', 'mcp', 'snapshot', '--', process.execPath, spy, V2_SERVER, snapshotLog], { env: { APPS: '1', LEGACY: 'reject' } });
    expect(snapshot.exitCode).toBe(0);
    expect(sent(snapshotLog)).toContain('tools/list');
    expect(sent(snapshotLog)).not.toContain('io.modelcontextprotocol/ui');
  });
});

describe('mcp apps catches each reported bug class (stdio)', () => {
  const cases: Array<[string, number, string[]]> = [
    // PostHog#76899, #98901
    ['csp-read-only', 0, ['note apps/csp-list-read resources/list ui://weather/dashboard.html $._meta.ui.csp']],
    ['csp-differs', 0, ['warning apps/csp-list-read resources/list ui://weather/dashboard.html $._meta.ui.csp']],
    // PostHog#69612
    [
      'openai-conflict',
      0,
      [
        'warning apps/host-key-conflict resources/read ui://weather/dashboard.html $._meta["openai/widgetCSP"]',
        'warning apps/host-key-conflict resources/list ui://weather/dashboard.html $._meta["openai/widgetCSP"]',
      ],
    ],
    // apify-mcp-server#1190: the CSP on the tool; the HTML's CDN is then blocked
    ['csp-on-tool', 1, ['error apps/html-loads resources/read ui://weather/dashboard.html $.contents[0].text', 'warning apps/csp-on-tool show_weather']],
    // redmine-mcp-server#249
    ['csp-not-set', 0, ['warning apps/csp-on-tool show_weather']],
    [
      'broken',
      1,
      [
        'error apps/resource-resolves resources/read ui://weather/missing.html',
        'error apps/mime-type resources/read ui://weather/forecast.html $.contents[0].mimeType',
        'error apps/html-loads resources/read ui://weather/forecast.html $.contents[0].text',
        'warning apps/mime-type resources/list ui://weather/forecast.html $.mimeType',
      ],
    ],
  ];
  for (const [name, exitCode, findings] of cases) {
    it(`${name}: exit ${exitCode}`, async () => {
      const result = await apps(['--', process.execPath, APPS_SERVER], { APPS_CASE: name });
      expect(brief(result.report)).toEqual(findings);
      expect(result.exitCode).toBe(exitCode);
    });
  }

  it('a URL the HTML loads is printed with its secrets masked', async () => {
    const { report } = await apps(['--', process.execPath, APPS_SERVER], { APPS_CASE: 'broken' });
    const blocked = report.findings.find((finding) => finding.rule === 'apps/html-loads');
    expect(blocked?.message).toBe(
      'ui://weather/forecast.html loads https://evil.example.net/x.js?access_token=*** (script src), which hosts block: it declares no CSP, and the default allows no external origin',
    );
    expect(JSON.stringify(report)).not.toContain('s3cr3t');
  });

  it("a UI that does not resolve is said with the server's answer, once", async () => {
    const { report } = await apps(['--', process.execPath, APPS_SERVER], { APPS_CASE: 'broken' });
    expect(report.findings[0]!.message).toBe(
      'ui://weather/missing.html (the UI of show_weather) does not resolve: resources/read answered MCP error -32002: Resource not found: ui://weather/missing.html',
    );
  });

  it('says why, with the fix and the source, for a person', async () => {
    const result = await runInProcess(['mcp', 'apps', '--', process.execPath, APPS_SERVER], { env: { APPS_CASE: 'csp-not-set' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'apps-server  declares io.modelcontextprotocol/ui',
        '  show_weather → ui://weather/dashboard.html  visibility: model, app',
        '  ui://weather/dashboard.html  text/html;profile=mcp-app, 165 bytes · listed · no CSP (the restrictive default)',
        '',
        '⚠ warning apps/csp-on-tool  apps-server · show_weather · $._meta.ui.csp',
        '          the tool declares _meta.ui.csp, which hosts ignore on a tool; ui://weather/dashboard.html declares no CSP, so hosts use the restrictive default and ChatGPT says "Widget CSP is not set"',
        "          fix: declare them in the UI resource's _meta.ui, in both resources/list and resources/read (ui://weather/dashboard.html), and drop them from the tool · https://github.com/modelcontextprotocol/ext-apps/blob/main/src/spec.types.ts",
        '',
        '0 errors, 1 warning, 0 notes · 1 App tool of 1 server',
      ].join('\n'),
    );
  });
});

describe('mcp apps over HTTP', () => {
  let good: HttpFixture;
  let onTool: HttpFixture;
  beforeAll(async () => {
    [good, onTool] = await Promise.all([
      startHttpFixture('apps-server.js', { TRANSPORT: 'http', APPS_CASE: 'good' }),
      startHttpFixture('apps-server.js', { TRANSPORT: 'http', APPS_CASE: 'csp-on-tool' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([good?.stop(), onTool?.stop()]);
  });

  it('the same verdicts as over stdio', async () => {
    const clean = await apps([good.url]);
    expect(clean.exitCode).toBe(0);
    expect(clean.report.servers[0]!.tools.map((tool) => tool.name)).toEqual(['show_weather']);
    expect(clean.report.findings).toEqual([]);
    const caught = await apps([onTool.url]);
    expect(caught.exitCode).toBe(1);
    expect(brief(caught.report)).toEqual(['error apps/html-loads resources/read ui://weather/dashboard.html $.contents[0].text', 'warning apps/csp-on-tool show_weather']);
  });

  it('server-basic-vanillajs over Streamable HTTP: no finding', async () => {
    const port = await freePort();
    const child = execa(process.execPath, [official('server-basic-vanillajs')], { env: { PORT: String(port) }, reject: false, buffer: false, stdin: 'ignore' });
    try {
      await new Promise<void>((resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('listening on')) resolve();
        });
        void child.then(() => reject(new Error(`server-basic-vanillajs ended: ${text}`)));
      });
      const { exitCode, report } = await apps([`http://127.0.0.1:${port}/mcp`]);
      expect(exitCode).toBe(0);
      expect(report.servers[0]!.tools.map((tool) => tool.name)).toEqual(['get-time']);
      expect(report.findings).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await child;
    }
  });
});

describe('mcp apps in the 2026-07-28 era (v2 SDK server), stdio and HTTP', () => {
  it('stdio: the App, its CSP in list and read, no finding', async () => {
    const { exitCode, report } = await apps(['--protocol', '2026-07-28', '--', process.execPath, V2_SERVER], { APPS: '1', LEGACY: 'reject' });
    expect(exitCode).toBe(0);
    expect(report.servers[0]!.tools).toEqual([{ name: 'show-dashboard', resourceUri: 'ui://v2/dashboard.html', visibility: ['model', 'app'] }]);
    expect(report.servers[0]!.resources[0]).toMatchObject({ cspDeclaredIn: 'both', csp: { resourceDomains: ['https://cdn.example.com'] } });
    expect(report.findings).toEqual([]);
  });

  it('HTTP: the same', async () => {
    const server = await startV2HttpServer({ APPS: '1', LEGACY: 'reject' });
    try {
      const { exitCode, report } = await apps(['--protocol', '2026-07-28', server.url]);
      expect(exitCode).toBe(0);
      expect(report.servers[0]!.tools.map((tool) => tool.name)).toEqual(['show-dashboard']);
      expect(report.findings).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe("mcp lint's apps target", () => {
  interface LintReport {
    servers: Array<{ server: string; tools: number }>;
    findings: Finding[];
    errors: number;
  }
  const lint = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runInProcess(['--json', 'mcp', 'lint', '--no-tokens', ...args], { env });
    return { exitCode: result.exitCode, report: JSON.parse(result.stdout) as LintReport, stderr: result.stderr };
  };

  it("runs mcp apps' rules, and claims the extension only when it is a target", async () => {
    const caught = await lint(['--target', 'apps', '--', process.execPath, APPS_SERVER], { APPS_CASE: 'csp-on-tool' });
    expect(caught.exitCode).toBe(1);
    expect(caught.report.findings.map((finding) => `${finding.severity} ${finding.rule} ${finding.tool ?? finding.path}`)).toEqual([
      'error apps/html-loads resources/read ui://weather/dashboard.html $.contents[0].text',
      'warning apps/csp-on-tool show_weather',
    ]);
    expect(caught.report.servers).toEqual([{ server: 'apps-server', tools: 2 }]);
    const withoutApps = await lint(['--target', 'openai', '--', process.execPath, APPS_SERVER], { APPS_CASE: 'csp-on-tool' });
    expect(withoutApps.exitCode).toBe(0);
    expect(withoutApps.report.servers).toEqual([{ server: 'apps-server', tools: 1 }]);
  });

  it('no false alarm on server-basic-vanillajs', async () => {
    const { exitCode, report } = await lint(['--target', 'apps', '--', process.execPath, official('server-basic-vanillajs'), '--stdio']);
    expect(exitCode).toBe(0);
    expect(report.findings).toEqual([]);
  });

  it('a snapshot cannot be judged for Apps: exit 2, saying why', async () => {
    const result = await runInProcess(['mcp', 'lint', '--target', 'apps', '--snapshot', 'fixtures/lint/clean.snapshot.json'], { cwd: ROOT });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--target apps judges live servers (it reads their UI resources): name servers instead of --snapshot');
  });
});

describe("mcp conform's extensions.apps check (profile toolrun@2)", () => {
  const appsCheck = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runInProcess(['--json', 'mcp', 'conform', '--profile', 'toolrun@2', ...args], { env });
    const report = JSON.parse(result.stdout) as { checks: Array<{ id: string; verdict: string; message: string }> };
    return report.checks.find((check) => check.id === 'extensions.apps');
  };

  it('passes a right App, fails a broken one, warns on a CSP that differs between list and read', async () => {
    expect(await appsCheck(['--', process.execPath, APPS_SERVER], { APPS_CASE: 'good' })).toMatchObject({
      verdict: 'pass',
      message: '1 UI resource of 2 tools checked with io.modelcontextprotocol/ui claimed',
    });
    expect(await appsCheck(['--', process.execPath, APPS_SERVER], { APPS_CASE: 'broken' })).toMatchObject({
      verdict: 'fail',
      message:
        'apps/resource-resolves: ui://weather/missing.html (the UI of show_weather) does not resolve: resources/read answered error -32002 (Resource not found: ui://weather/missing.html) (and 3 more)',
    });
    expect(await appsCheck(['--', process.execPath, APPS_SERVER], { APPS_CASE: 'csp-differs' })).toMatchObject({ verdict: 'warn' });
  });

  it('over HTTP, and in the 2026-07-28 era', async () => {
    const server = await startHttpFixture('apps-server.js', { TRANSPORT: 'http', APPS_CASE: 'broken' });
    try {
      expect(await appsCheck([server.url])).toMatchObject({ verdict: 'fail' });
    } finally {
      await server.stop();
    }
    expect(await appsCheck(['--protocol', '2026-07-28', '--', process.execPath, V2_SERVER], { APPS: '1', LEGACY: 'reject' })).toMatchObject({ verdict: 'pass' });
  });

  it('skips a server that does not declare the extension, and toolrun@1 has no such check', async () => {
    expect(await appsCheck(['--', process.execPath, official('server-basic-vanillajs'), '--stdio'])).toMatchObject({
      verdict: 'skip',
      message: 'the server does not declare io.modelcontextprotocol/ui',
    });
    const result = await runInProcess(['--json', 'mcp', 'conform', '--profile', 'toolrun@1', '--', process.execPath, APPS_SERVER], { env: { APPS_CASE: 'broken' } });
    expect((JSON.parse(result.stdout) as { checks: Array<{ id: string }> }).checks.map((check) => check.id)).not.toContain('extensions.apps');
  });
});

describe('mcp apps exit codes', () => {
  it('4 when the server cannot be reached, said on stderr', async () => {
    const config = writeTempConfig({ retry: { attempts: 1 }, servers: { dead: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } });
    const result = await runInProcess(['--config', config, 'mcp', 'apps', 'dead']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('not checked: ');
  });

  it('2 for an unknown server', async () => {
    const config = writeTempConfig({ servers: { weather: fixtureServer('apps-server.js') } });
    const result = await runInProcess(['--config', config, 'mcp', 'apps', 'nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("'nope'");
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
