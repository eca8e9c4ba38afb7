import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVERYTHING, fixtureHome, trustInGemini } from '../helpers/host-fixtures.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { EVERYTHING_DIST_INDEX, fixtureServerScript } from '../helpers/bundled-servers.js';

/**
 * Issue #30: with `--host`, toolrun starts only what the host itself would start, as it would. Every
 * server below writes a marker file the moment it starts, so "never started" is proved, not assumed.
 */
/** Each test starts several servers, one command after another: generous on a loaded 2-core machine. */
const SLOW = { timeout: 60_000 };

// Imports the published modules (not the suite's bundle, test/helpers/bundled-servers.ts): a marker comes first.
const STDIO = pathToFileURL(join(dirname(EVERYTHING_DIST_INDEX), 'transports', 'stdio.js')).href;

/** server-everything, writing `file` (its working folder as content) before it starts. */
const markerServer = (file: string) => ({
  command: process.execPath,
  args: ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, process.cwd()); import(${JSON.stringify(STDIO)})`],
});

interface HostsJson {
  files: Array<{ scope: string; entries: Array<{ name: string; state: string; reason?: string; fix?: string; approvedBy?: string }> }>;
}

function claudeProject() {
  const f = fixtureHome();
  const marker = (name: string) => join(f.root, `${name}.started`);
  f.write(
    join(f.project, '.mcp.json'),
    JSON.stringify({ mcpServers: { 'rejected-server': markerServer(marker('rejected')), 'pending-server': markerServer(marker('pending')), approved: markerServer(marker('approved')) } }),
  );
  f.write(join(f.home, '.claude.json'), JSON.stringify({ projects: { [f.project]: { hasTrustDialogAccepted: true, disabledMcpjsonServers: ['rejected-server'] } } }));
  f.write(join(f.project, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['approved'] }));
  return { ...f, marker };
}

describe('Claude Code approvals: a project .mcp.json server runs only once approved, never when rejected', () => {
  it('hosts shows each state; list, mcp list --check, exec, doctor and hosts import never start a pending or rejected server', SLOW, async () => {
    const f = claudeProject();
    const hosts = JSON.parse((await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env })).stdout) as HostsJson;
    const states = Object.fromEntries(hosts.files.find((file) => file.scope === 'project')!.entries.map((entry) => [entry.name, entry.state]));
    expect(states).toEqual({ 'rejected-server': 'rejected', 'pending-server': 'pending-approval', approved: 'approved' });
    const human = await runToolrun(['hosts'], { cwd: f.project, env: f.env });
    expect(human.stdout).toContain(`rejected-server  stdio`);
    expect(human.stdout).toContain(`✖ not started: rejected in Claude Code: listed in disabledMcpjsonServers of ${join(f.home, '.claude.json')}`);
    expect(human.stdout).toContain(`approved (enabledMcpjsonServers in ${join(f.project, '.claude', 'settings.local.json')})`);

    // Listing all servers, a gated one is shown with its state, not a failure (issue 47); named, it is one.
    const list = await runInProcess(['--host', 'claude-code', 'list', '--json'], { cwd: f.project, env: f.env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).toContain(
      "○ MCP server 'pending-server' not started (pending-approval)\n  Reason: pending approval in Claude Code: a project's .mcp.json server starts only once you approve it",
    );
    expect(list.stderr).toContain(`  Check: approve it in Claude Code: run \`claude\` in ${f.project} and accept it (or enable it in /mcp)`);
    expect(list.stderr).toContain("○ MCP server 'rejected-server' not started (rejected)");
    expect((JSON.parse(list.stdout) as { tools: Array<{ server?: string }> }).tools.some((tool) => tool.server === 'approved')).toBe(true);
    expect(existsSync(f.marker('approved'))).toBe(true);
    const named = await runInProcess(['--host', 'claude-code', 'list', '--server', 'pending-server'], { cwd: f.project, env: f.env });
    expect(named.exitCode).toBe(4);
    expect(named.stderr).toContain("✖ MCP server 'pending-server' not started");

    const check = await runInProcess(['--host', 'claude-code', 'mcp', 'list', '--check'], { cwd: f.project, env: f.env });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^pending-server +stdio +○ pending-approval /m);
    expect(check.stdout).toMatch(/^rejected-server +stdio +○ rejected /m);
    const exec = await runInProcess(['--host', 'claude-code', 'exec', 'pending-server:echo', 'message=hi'], { cwd: f.project, env: f.env });
    expect(exec.exitCode).toBe(4);
    expect(exec.stderr).toContain("✖ MCP server 'pending-server' not started");
    const doctor = await runInProcess(['--host', 'claude-code', 'mcp', 'doctor', 'rejected-server'], { cwd: f.project, env: f.env });
    expect(doctor.exitCode).toBe(4);
    expect(doctor.stdout).toContain('✖ config      not started: rejected in Claude Code');
    const imported = await runInProcess(['hosts', 'import', 'claude-code', 'pending-server', 'rejected-server', '--into', join(f.root, 'out.json')], { cwd: f.project, env: f.env });
    expect(imported.exitCode).toBe(0);
    expect(imported.stderr).toContain('pending-server not imported');
    expect(existsSync(join(f.root, 'out.json'))).toBe(false);
    expect(existsSync(f.marker('pending'))).toBe(false);
    expect(existsSync(f.marker('rejected'))).toBe(false);
  });

  it('a cloned repository cannot approve its own servers: its committed .claude/settings.json counts only in a trusted folder; a rejection counts anywhere', SLOW, async () => {
    const f = fixtureHome();
    const marker = join(f.root, 'self.started');
    f.write(join(f.project, '.mcp.json'), JSON.stringify({ mcpServers: { self: markerServer(marker), other: markerServer(join(f.root, 'other.started')) } }));
    f.write(join(f.project, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true, disabledMcpjsonServers: ['other'] }));
    const untrusted = await runInProcess(['--host', 'claude-code', 'list'], { cwd: f.project, env: f.env });
    expect(untrusted.exitCode, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toContain(`only the project's own ${join(f.project, '.claude', 'settings.json')} approves it, which Claude Code ignores until you trust ${f.project}`);
    expect(existsSync(marker)).toBe(false);
    f.write(join(f.home, '.claude.json'), JSON.stringify({ projects: { [f.project]: { hasTrustDialogAccepted: true } } }));
    const trusted = await runInProcess(['--host', 'claude-code', 'list', '--server', 'self'], { cwd: f.project, env: f.env });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const rejected = await runInProcess(['--host', 'claude-code', 'exec', 'other:echo', 'message=x'], { cwd: f.project, env: f.env });
    expect(rejected.exitCode).toBe(4);
    expect(existsSync(join(f.root, 'other.started'))).toBe(false);
  });

  it("ignores an entry's cwd, as Claude Code does: the server starts in the folder it was launched from", SLOW, async () => {
    const f = fixtureHome();
    const marker = join(f.root, 'cwd.started');
    f.write(join(f.home, '.claude.json'), JSON.stringify({ mcpServers: { here: { ...markerServer(marker), cwd: f.root } } }));
    const result = await runInProcess(['--host', 'claude-code', 'list', '--server', 'here'], { cwd: f.project, env: f.env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(marker, 'utf8')).toBe(f.project);
  });
});

describe('Codex and Gemini CLI trust', () => {
  it("a Codex project's .codex/config.toml is used only when ~/.codex/config.toml trusts the project", SLOW, async () => {
    const f = fixtureHome();
    const marker = join(f.root, 'codex.started');
    const server = markerServer(marker);
    f.write(join(f.project, '.codex', 'config.toml'), `[mcp_servers.repo]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\n`);
    f.write(join(f.home, '.codex', 'config.toml'), `[projects.${JSON.stringify(f.project)}]\ntrust_level = "untrusted"\n`);
    const untrusted = await runInProcess(['--host', 'codex', 'list'], { cwd: f.project, env: f.env });
    expect(untrusted.exitCode, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toContain(`Reason: Codex reads ${join(f.project, '.codex', 'config.toml')} only in a trusted project, and ${f.project} is marked untrusted`);
    expect(untrusted.stderr).toContain(`add [projects."${f.project}"] trust_level = "trusted" to ${join(f.home, '.codex', 'config.toml')}`);
    // mcp list marks it with the state `hosts` shows (issue 47: it was listed with no mark).
    const listed = await runInProcess(['--host', 'codex', 'mcp', 'list'], { cwd: f.project, env: f.env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^NAME +TRANSPORT +STATE +COMMAND \/ URL$/m);
    expect(listed.stdout).toContain(`repo  stdio      ○ untrusted  ${server.command} -e`);
    expect(listed.stdout).toContain(`(not started: Codex reads ${join(f.project, '.codex', 'config.toml')} only in a trusted project, and ${f.project} is marked untrusted`);
    const json = JSON.parse((await runInProcess(['--host', 'codex', 'mcp', 'list', '--json'], { cwd: f.project, env: f.env })).stdout) as { servers: Array<Record<string, string>> };
    expect(json.servers.map((entry) => [entry.name, entry.state, entry.reason?.startsWith('Codex reads ')])).toEqual([['repo', 'untrusted', true]]);
    expect(existsSync(marker)).toBe(false);
    f.write(join(f.home, '.codex', 'config.toml'), `[projects.${JSON.stringify(f.project)}]\ntrust_level = "trusted"\n`);
    const trusted = await runInProcess(['--host', 'codex', 'list'], { cwd: f.project, env: f.env });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect((await runInProcess(['--host', 'codex', 'mcp', 'list'], { cwd: f.project, env: f.env })).stdout).toMatch(/^NAME +TRANSPORT +COMMAND \/ URL\nrepo +stdio +/);
  });

  it('Gemini CLI starts no server in an untrusted folder; trusted, it drops secret-looking variables unless the entry passes them ($VAR)', SLOW, async () => {
    const f = fixtureHome();
    const marker = join(f.root, 'gemini.started');
    const token = { command: process.execPath, args: [fixtureServerScript('needs-token-server.js')] };
    f.write(join(f.home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { ev: { ...markerServer(marker), env: { FROM_ENTRY: 'yes', PASSED_TOKEN: '$PASSED_TOKEN' } }, tok: token } }));
    const env = { ...f.env, FIXTURE_API_TOKEN: 'tok-value-1234567890', PASSED_TOKEN: 'passed-value', PLAIN_VALUE: 'plain', GITHUB_SHA: undefined, SURFACE: undefined };
    const untrusted = await runInProcess(['--host', 'gemini', 'exec', 'ev:get-env'], { cwd: f.project, env });
    expect(untrusted.exitCode).toBe(4);
    expect(untrusted.stderr).toContain(`Reason: Gemini CLI starts no MCP server in a folder you have not trusted (${f.project}: no rule in ${join(f.home, '.gemini', 'trustedFolders.json')})`);
    expect(existsSync(marker)).toBe(false);
    trustInGemini(f);
    const trusted = await runInProcess(['--host', 'gemini', 'exec', 'ev:get-env', '--json'], { cwd: f.project, env });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    const seen = JSON.parse((JSON.parse(trusted.stdout) as { result: string }).result) as Record<string, string>;
    expect({ entry: seen.FROM_ENTRY, passed: seen.PASSED_TOKEN, plain: seen.PLAIN_VALUE, dropped: seen.FIXTURE_API_TOKEN, mark: seen.GEMINI_CLI }).toEqual({
      entry: 'yes',
      passed: 'passed-value',
      plain: 'plain',
      dropped: undefined,
      mark: '1',
    });
    // The server needing a token Gemini CLI drops: list's advice and doctor's host step say so, in Gemini's syntax.
    const list = await runInProcess(['--host', 'gemini', 'list', '--server', 'tok'], { cwd: f.project, env });
    expect(list.exitCode).toBe(4);
    expect(list.stderr).toContain(
      'Check: FIXTURE_API_TOKEN is exported by your shell, but Gemini CLI does not pass it to the server: pass it on in the entry: "env": {"FIXTURE_API_TOKEN": "$FIXTURE_API_TOKEN"}',
    );
    const doctor = await runInProcess(['--host', 'gemini', 'mcp', 'doctor', 'tok'], { cwd: f.project, env });
    expect(doctor.stdout).toContain(
      'the server needs FIXTURE_API_TOKEN, which your shell exports and Gemini CLI does not pass\n    fix: pass it on in the entry: "env": {"FIXTURE_API_TOKEN": "$FIXTURE_API_TOKEN"}',
    );
    expect(doctor.stdout + doctor.stderr + list.stderr).not.toContain('tok-value-1234567890');
  });
});

describe('a server a Zed extension provides is shown, not a failure (issue 47)', () => {
  it('--host zed list runs the custom servers and exits 0; settings-only entries (with or without "source": "extension") are shown as host-only', SLOW, async () => {
    const f = fixtureHome();
    const marker = join(f.root, 'ev.started');
    // As Zed writes them: an extension's server has only its settings (today's Zed reads the entry
    // untagged; older Zed tagged it "source": "extension"); a custom one has its command.
    f.write(
      join(f.home, '.config', 'zed', 'settings.json'),
      JSON.stringify({
        context_servers: {
          'postgres-context-server': { enabled: true, remote: false, settings: { database_url: 'postgresql://localhost/db' } },
          'mcp-server-github': { source: 'extension', enabled: true, settings: {} },
          ev: { source: 'custom', ...markerServer(marker) },
        },
      }),
    );
    const list = await runInProcess(['--host', 'zed', 'list', '--json'], { cwd: f.project, env: f.env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: Array<{ server?: string }> }).tools.some((tool) => tool.server === 'ev')).toBe(true);
    for (const name of ['postgres-context-server', 'mcp-server-github'])
      expect(list.stderr).toContain(
        `○ MCP server '${name}' not started (host-only)\n  Reason: provided by a Zed extension: only Zed knows how to start it\n  Check: add it as a custom server ("source": "custom", with its command) to run it with toolrun`,
      );
    expect(list.stderr).not.toContain('✖');
    expect(list.stderr).not.toContain('Continuing without');
    expect(existsSync(marker)).toBe(true);
    const listed = JSON.parse((await runInProcess(['--host', 'zed', 'mcp', 'list', '--json'], { cwd: f.project, env: f.env })).stdout) as { servers: Array<Record<string, string>> };
    expect(Object.fromEntries(listed.servers.map((entry) => [entry.name, entry.state ?? 'started']))).toEqual({
      ev: 'started',
      'postgres-context-server': 'host-only',
      'mcp-server-github': 'host-only',
    });
    const named = await runInProcess(['--host', 'zed', 'list', '--server', 'postgres-context-server'], { cwd: f.project, env: f.env });
    expect(named.exitCode).toBe(4);
    expect(named.stderr).toContain("✖ MCP server 'postgres-context-server' not started");
    // serve: the extension's servers are said not served, as never started — not "tried again at the next call".
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const serving = runToolrun(['--host', 'zed', 'serve'], { stdin: 'pipe', cwd: f.project, env: f.env });
    serving.stdin!.write(`${initialize}\n`);
    // The client stays until the upstreams have started and serve has said which it serves without.
    let said = '';
    await new Promise<void>((resolve) => {
      serving.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('not serving') || said.includes('serving without')) resolve();
      });
      serving.stderr!.once('end', resolve);
    });
    serving.stdin!.end();
    const served = await serving;
    expect(served.exitCode, served.stderr).toBe(0);
    expect(served.stderr).toContain('not serving postgres-context-server (host-only), mcp-server-github (host-only): the host does not start them as configured; `toolrun hosts` says why');
    expect(served.stderr).not.toContain('tried again at the next call');
  });
});

describe('envFile, and one bad entry never blocks the host', () => {
  it("VS Code's envFile (${workspaceFolder}/.env) reaches the server as VS Code loads it, env over it; the value never printed", SLOW, async () => {
    const f = fixtureHome();
    f.write(join(f.project, '.env'), '# secrets\nexport FIXTURE_API_TOKEN="tok-from-file-123456"\nSHARED=file\n');
    const token = { command: process.execPath, args: [fixtureServerScript('needs-token-server.js')] };
    f.write(
      join(f.project, '.vscode', 'mcp.json'),
      JSON.stringify({
        servers: {
          ev: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], envFile: '${workspaceFolder}/.env', env: { SHARED: 'entry' } },
          tok: { type: 'stdio', ...token, envFile: '${workspaceFolder}/.env' },
          gone: { type: 'stdio', ...token, envFile: '${workspaceFolder}/missing.env' },
        },
      }),
    );
    const result = await runInProcess(['--host', 'vscode', 'exec', 'ev:get-env', '--json'], { cwd: f.project, env: f.env });
    expect(result.exitCode, result.stderr).toBe(0);
    const seen = JSON.parse((JSON.parse(result.stdout) as { result: string }).result) as Record<string, string>;
    expect([seen.FIXTURE_API_TOKEN, seen.SHARED]).toEqual(['tok-from-file-123456', 'entry']);
    // Only the tool's own answer (get-env, asked for) holds the value: what toolrun says of it does not.
    expect(result.stderr).not.toContain('tok-from-file-123456');
    // doctor shows the environment the envFile gave the server (so the value would be here), masked.
    const doctor = await runInProcess(['--host', 'vscode', 'mcp', 'doctor', 'tok'], { cwd: f.project, env: f.env });
    expect(doctor.exitCode, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/^ {4}env: FIXTURE_API_TOKEN=\*\*\* SHARED=file$/m);
    const doctorJson = await runInProcess(['--host', 'vscode', '--json', 'mcp', 'doctor', 'tok'], { cwd: f.project, env: f.env });
    expect(JSON.parse(doctorJson.stdout).steps[0].data.env).toEqual({ FIXTURE_API_TOKEN: '***', SHARED: 'file' });
    const missing = await runInProcess(['--host', 'vscode', 'list', '--server', 'tok', 'gone', '--json'], { cwd: f.project, env: f.env });
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain(`Reason: its envFile ${join(f.project, 'missing.env')} does not exist, so vscode does not start it either`);
    expect(missing.stdout).toContain('"server":"tok"');
    expect([doctor, doctorJson, missing].flatMap((run) => [run.stdout, run.stderr]).filter((text) => text.includes('tok-from-file-123456'))).toEqual([]);
  });

  it('an unset ${env:X} is empty as in VS Code; ${input:…}, a Zed extension server and a broken file are each named and skipped while the rest run', SLOW, async () => {
    const f = fixtureHome();
    const ev = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
    f.write(
      join(f.project, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [{ id: 'k', type: 'promptString' }],
        servers: { ev: { type: 'stdio', ...ev, env: { OPTIONAL: '${env:NOT_SET_ANYWHERE}' } }, asks: { ...ev, env: { K: '${input:k}' } } },
      }),
    );
    const vscode = await runInProcess(['--host', 'vscode', 'list', '--json'], { cwd: f.project, env: f.env });
    expect(vscode.exitCode).toBe(4);
    expect(vscode.stderr).toContain("✖ MCP server 'asks' not started\n  Reason: it uses ${input:k}, which only vscode can fill in");
    expect(vscode.stdout).toContain('"server":"ev"');
    const validate = await runInProcess(['--host', 'vscode', 'validate'], { cwd: f.project, env: f.env });
    expect(validate.exitCode).toBe(4);
    expect(validate.stdout).toContain('✖ asks: not started (see above)');

    f.write(join(f.home, '.config', 'zed', 'settings.json'), JSON.stringify({ context_servers: { ext: { source: 'extension', enabled: true, settings: {} }, ev: { source: 'custom', ...ev } } }));
    const zed = await runInProcess(['--host', 'zed', 'mcp', 'list', '--check'], { cwd: f.project, env: f.env });
    expect(zed.exitCode, zed.stderr).toBe(0);
    expect(zed.stderr).toContain('provided by a Zed extension: only Zed knows how to start it');
    expect(zed.stdout).toMatch(/^ev +stdio +✔ ok/m);
    expect(zed.stdout).toMatch(/^ext +stdio +○ host-only /m);

    f.write(join(f.home, '.cursor', 'mcp.json'), '{"mcpServers": {"a": }');
    f.write(join(f.project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { ev } }));
    const cursor = await runInProcess(['--host', 'cursor', 'list', '--server', 'ev'], { cwd: f.project, env: f.env });
    expect(cursor.exitCode, cursor.stderr).toBe(0);
    expect(cursor.stderr).toContain(`⚠ cursor config ${join(f.home, '.cursor', 'mcp.json')} set aside: 1:22: invalid JSON: value expected (its servers are not started; the other files' are)`);
  });
});

describe("messages name the host's file and keys, and fixes in its syntax", () => {
  it("Codex's bearer_token_env_var unset: the error names mcp_servers.NAME.bearer_token_env_var in ~/.codex/config.toml, no ${NAME:-value} Codex cannot read", SLOW, async () => {
    const f = fixtureHome();
    const file = join(f.home, '.codex', 'config.toml');
    f.write(file, '[mcp_servers.remote]\nurl = "http://127.0.0.1:9/mcp"\nbearer_token_env_var = "CODEX_TEST_TOKEN_UNSET"\n');
    const result = await runInProcess(['--host', 'codex', 'exec', 'remote:x'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`${file}: mcp_servers.remote.bearer_token_env_var: environment variable CODEX_TEST_TOKEN_UNSET is not set. Export it where Codex runs`);
    expect(result.stderr).not.toContain(':-value');
    const doctor = await runInProcess(['--host', 'codex', 'mcp', 'doctor', 'remote'], { cwd: f.project, env: f.env });
    expect(doctor.stdout).toContain('fix: set the variable where Codex runs (Codex has no ${NAME:-default})');
  });

  it("a VS Code entry toolrun cannot read is named at its place in the host's keys (servers.NAME…), the others run", SLOW, async () => {
    const f = fixtureHome();
    const file = join(f.project, '.vscode', 'mcp.json');
    f.write(file, JSON.stringify({ servers: { bad: { type: 'stdio', command: 42 }, ev: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    const result = await runInProcess(['--host', 'vscode', 'list', '--json'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`Reason: its entry in ${file} is not one toolrun can start: servers.bad.command:`);
    expect(result.stdout).toContain('"server":"ev"');
  });
});

describe('hosts import and tap --unwrap', () => {
  it('hosts import makes a relative cwd absolute from where the host resolves it, and says so', SLOW, async () => {
    const f = fixtureHome();
    f.write(join(f.project, '.roo', 'mcp.json'), JSON.stringify({ mcpServers: { s: { command: 'node', args: ['s.js'], cwd: 'tools' } } }));
    const target = join(f.root, 'out.json');
    const result = await runInProcess(['hosts', 'import', 'roo', '--into', target], { cwd: f.project, env: f.env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`s: relative "cwd" "tools" made absolute (${join(f.project, 'tools')}), as Roo Code resolves it from ${f.project}`);
    expect((JSON.parse(readFileSync(target, 'utf8')) as { mcpServers: { s: { cwd: string } } }).mcpServers.s.cwd).toBe(join(f.project, 'tools'));
  });
});

describe('host files that are not what they seem', () => {
  it('a host file that is not UTF-8 is refused naming the byte offset; tap --wrap refuses a host file over 4 MB, untouched', SLOW, async () => {
    const f = fixtureHome();
    const cursor = join(f.home, '.cursor', 'mcp.json');
    f.write(cursor, '');
    writeFileSync(cursor, Buffer.concat([Buffer.from('{"mcpServers": {"a": {"command": "caf'), Buffer.from([0xe9]), Buffer.from('"}}}')]));
    const hosts = await runToolrun(['hosts', '--json'], { cwd: f.project, env: f.env });
    expect(hosts.stdout).toContain('not UTF-8 (byte 0xe9 at offset 37): not read; save it as UTF-8');
    const desktop = join(f.home, '.config', 'Claude', 'claude_desktop_config.json');
    const big = JSON.stringify({ mcpServers: { s: { command: 'node', args: ['x'.repeat(5 << 20)] } } });
    f.write(desktop, big);
    const wrap = await runInProcess(['mcp', 'tap', '--wrap', 'claude-desktop', 's'], { cwd: f.project, env: f.env });
    expect(wrap.exitCode).not.toBe(0);
    expect(wrap.stderr).toContain('larger than 4 MB');
    expect(readFileSync(desktop, 'utf8')).toBe(big);
  });
});
