import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allTwelve, echoServer, fixtureHome } from '../helpers/host-fixtures.js';
import { parseJsonc } from '../../src/config/parse-jsonc.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';

interface ImportJson {
  host: string;
  into: string;
  created: boolean;
  imported: Array<{ name: string; from: string; replaced: boolean; disabled: boolean; notes: string[] }>;
  skipped: Array<{ name: string; from: string; reason: string }>;
}

/** The server names of a toolrun config, read as toolrun reads it (JSONC). */
const mcpServersOf = (path: string) => Object.keys((parseJsonc(readFileSync(path, 'utf8')) as { value: { mcpServers: object } }).value.mcpServers);

describe('toolrun hosts import', () => {
  it("imports one named server into ./toolrun.config.json (created), and the result passes 'toolrun --config FILE validate'", async () => {
    const f = fixtureHome();
    const cursor = join(f.home, '.cursor', 'mcp.json');
    f.write(cursor, JSON.stringify({ mcpServers: { everything: echoServer(), other: { command: 'node', args: ['other.js'] } } }));
    const result = await runInProcess(['hosts', 'import', 'cursor', 'everything'], { cwd: f.project, env: f.env });
    const target = join(f.project, 'toolrun.config.json');
    expect(result.stderr).toContain(`created ${target}`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`imported everything from cursor (${cursor}) into ${target}`);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ mcpServers: { everything: echoServer() } });
    const validate = await runCleanInProcess(['--config', target, 'validate'], { cwd: f.root, env: f.env });
    expect(validate.stdout).toContain('1 MCP server');
    // 15: server-everything adds its elicitation tools for a client that answers elicitation, as toolrun does.
    expect(validate.stdout).toContain('MCP tools: 15 from 1 of 1 server');
    expect(validate.exitCode).toBe(0);
  }, 60_000);

  it('imports every server of each of the 12 hosts into one commented JSONC config: comments kept, no secret printed, validate passes', async () => {
    const f = allTwelve();
    const target = join(f.root, 'mine.jsonc');
    const before = '// my servers\n{\n    "timeoutMs": 5000, // five seconds\n    "mcpServers": {\n        /* none yet */\n    },\n}\n';
    writeFileSync(target, before);
    const hosts = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'zed', 'cline', 'roo', 'continue', 'opencode'];
    for (const host of hosts) {
      const result = await runInProcess(['hosts', 'import', host, '--into', target], { cwd: f.project, env: f.env });
      expect(result.stderr).not.toMatch(/not imported|nothing imported/);
      expect({ host, exitCode: result.exitCode }).toEqual({ host, exitCode: 0 });
      expect(result.stdout).toMatch(new RegExp(`^imported \\S+ from ${host} \\(`));
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/sk-secret|hunter2/);
    }
    const after = readFileSync(target, 'utf8');
    expect(after.startsWith('// my servers\n{\n    "timeoutMs": 5000, // five seconds\n    "mcpServers": {\n        /* none yet */\n        "desktop": {\n            "command": "node",')).toBe(true);
    expect(after.endsWith('\n    },\n}\n')).toBe(true);
    expect(mcpServersOf(target).sort()).toEqual(
      ['desktop', 'ccuser', 'ccproject', 'cclocal', 'cursor', 'vs', 'vsuser', 'surf', 'codex', 'gem', 'zed', 'cline', 'roo', 'cont', 'contblock', 'oc'].sort(),
    );
    // A literal value in a host file is copied as it is (it was written there); the Codex timeout is carried over.
    expect(after).toContain('"API_TOKEN": "sk-secretsecretsecret1234"');
    expect(after).toContain('"connectTimeoutMs": 30000');
    const validate = await runInProcess(['--config', target, 'validate', '--offline'], { cwd: f.root, env: f.env });
    expect(validate.stdout).toContain('16 MCP servers');
    expect(validate.exitCode).toBe(0);
  }, 120_000);

  it('a name already in the config: exit 2, one line naming it, the file and --force, the file unchanged byte for byte (all or nothing)', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { fresh: { command: 'node', args: ['new.js'] }, docs: { url: 'https://example.com/mcp' } } }));
    const target = join(f.project, 'toolrun.config.json');
    const before = '{\n  // keep me\n  "mcpServers": {\n    "docs": { "command": "old" }\n  }\n}\n';
    writeFileSync(target, before);
    chmodSync(target, 0o640);
    const refused = await runInProcess(['hosts', 'import', 'cursor'], { cwd: f.project, env: f.env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim()).toBe(`✖ server 'docs' is already in ${target}; nothing was written. Add --force to replace it`);
    expect(refused.stdout).toBe('');
    expect(readFileSync(target, 'utf8')).toBe(before);
    const forced = await runInProcess(['hosts', 'import', 'cursor', '--force'], { cwd: f.project, env: f.env });
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain('imported docs from cursor');
    expect(forced.stdout).toContain('(replaced the entry there)');
    expect(readFileSync(target, 'utf8')).toBe(
      '{\n  // keep me\n  "mcpServers": {\n    "docs": {"url":"https://example.com/mcp"},\n    "fresh": {\n      "command": "node",\n      "args": [\n        "new.js"\n      ]\n    }\n  }\n}\n',
    );
    // The file's own mode is kept across the atomic replace.
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it('--json: what was imported, with what did not come across; disabled and host-only-variable servers skipped, or imported disabled when named', async () => {
    const f = fixtureHome();
    const vscode = join(f.project, '.vscode', 'mcp.json');
    f.write(
      vscode,
      JSON.stringify({
        inputs: [{ id: 'key', type: 'promptString' }],
        servers: {
          plain: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/s.js'], envFile: '.env', env: { TOKEN: '${env:MY_TOKEN}' } },
          prompted: { command: 'node', env: { KEY: '${input:key}' } },
          off: { command: 'node', disabled: true },
        },
      }),
    );
    const target = join(f.root, 'out.json');
    const all = await runInProcess(['hosts', 'import', 'vscode:project', '--into', target, '--json'], { cwd: f.project, env: f.env });
    expect(all.exitCode).toBe(0);
    const json = JSON.parse(all.stdout) as ImportJson;
    expect(json).toMatchObject({ host: 'vscode', into: target, created: true });
    expect(json.imported).toEqual([
      {
        name: 'plain',
        from: vscode,
        replaced: false,
        disabled: false,
        notes: [],
      },
    ]);
    expect(json.skipped.map((skipped) => [skipped.name, skipped.reason])).toEqual([
      ['prompted', 'uses ${input:key}, which only vscode can fill in; name it to import it disabled'],
      ['off', 'disabled in vscode; name it to import it (kept disabled)'],
    ]);
    // The variable stays a variable, unset as '' as VS Code has it; the host's own ${workspaceFolder} is filled in
    // as VS Code does, and the envFile comes across from the workspace folder.
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({
      mcpServers: { plain: { type: 'stdio', command: 'node', args: [`${f.project}/s.js`], env: { TOKEN: '${MY_TOKEN:-}' }, envFile: join(f.project, '.env') } },
    });
    const named = await runInProcess(['hosts', 'import', 'vscode', 'prompted', 'off', '--into', target], { cwd: f.project, env: f.env });
    expect(named.exitCode).toBe(0);
    expect(named.stderr).toContain('prompted: imported disabled: it uses ${input:key}, which only vscode can fill in');
    expect(named.stderr).toContain('off: imported disabled, as it is in vscode');
    const servers = (JSON.parse(readFileSync(target, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;
    expect(servers.prompted).toEqual({ command: 'node', env: { KEY: '${input:key}' }, disabled: true });
    expect(servers.off!.disabled).toBe(true);
    // The envFile must exist, as VS Code needs it to ("Failed to read envFile"): missing, the entry is a config error.
    const missing = await runInProcess(['--config', target, 'validate', '--offline'], { cwd: f.root, env: { ...f.env, MY_TOKEN: 'x' } });
    expect(missing.exitCode).toBe(3);
    expect(missing.stdout).toContain(`mcpServers.plain.envFile: envFile ${join(f.project, '.env')} does not exist`);
    f.write(join(f.project, '.env'), 'OTHER=1\n');
    const validate = await runInProcess(['--config', target, 'validate', '--offline'], { cwd: f.root, env: { ...f.env, MY_TOKEN: 'x' } });
    expect(validate.exitCode, validate.stderr).toBe(0);
  });

  it('unknown server (its names listed), unknown host, no host file: exit 2, 2, 3; nothing created', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { a: { command: 'x' }, b: { command: 'y' } } }));
    const unknownServer = await runInProcess(['hosts', 'import', 'cursor', 'a', 'nope'], { cwd: f.project, env: f.env });
    expect(unknownServer.exitCode).toBe(2);
    expect(unknownServer.stderr).toContain("cursor has no server 'nope'; its servers: a, b");
    const unknownHost = await runInProcess(['hosts', 'import', 'cursr'], { cwd: f.project, env: f.env });
    expect(unknownHost.exitCode).toBe(2);
    expect(unknownHost.stderr).toContain("unknown host 'cursr'");
    const noFile = await runInProcess(['hosts', 'import', 'windsurf'], { cwd: f.project, env: f.env });
    expect(noFile.exitCode).toBe(3);
    expect(noFile.stderr).toContain('no windsurf config found; looked in:');
    expect(existsSync(join(f.project, 'toolrun.config.json'))).toBe(false);
  });

  it('the target: --config is one, --config with another --into is a usage error, a symbolic link is refused and left alone', async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { a: { command: 'x' } } }));
    const named = join(f.root, 'named.json');
    writeFileSync(named, '{}');
    const viaConfig = await runInProcess(['--config', named, 'hosts', 'import', 'cursor'], { cwd: f.project, env: f.env });
    expect(viaConfig.exitCode).toBe(0);
    expect(mcpServersOf(named)).toEqual(['a']);
    const both = await runInProcess(['--config', named, 'hosts', 'import', 'cursor', '--into', join(f.root, 'x.json')], { cwd: f.project, env: f.env });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('name two files');
    const real = join(f.root, 'real.json');
    writeFileSync(real, '{}');
    const link = join(f.root, 'link.json');
    symlinkSync(real, link);
    const linked = await runInProcess(['hosts', 'import', 'cursor', '--into', link], { cwd: f.project, env: f.env });
    expect(linked.exitCode).toBe(3);
    expect(linked.stderr).toContain(`cannot import into ${link}: it is a symbolic link (to ${real})`);
    expect(readFileSync(real, 'utf8')).toBe('{}');
  });

  it('a new config is as private as the host file its entries came from (~/.claude.json is 0600)', async () => {
    const f = fixtureHome();
    const claude = join(f.home, '.claude.json');
    f.write(claude, JSON.stringify({ mcpServers: { gh: { command: 'npx', env: { GITHUB_TOKEN: 'ghp_literal' } } } }));
    chmodSync(claude, 0o600);
    const result = await runInProcess(['hosts', 'import', 'claude-code:user'], { cwd: f.project, env: f.env });
    expect(result.exitCode).toBe(0);
    expect(statSync(join(f.project, 'toolrun.config.json')).mode & 0o777).toBe(0o600);
  });
});
