import { beforeAll, describe, expect, it } from 'vitest';
import { readClaudeDesktop } from '../../src/hosts/claude-desktop.js';
import { readClaudeCodeLocal, readClaudeCodeProject, readClaudeCodeUser } from '../../src/hosts/claude-code.js';
import { readCursor } from '../../src/hosts/cursor.js';
import { readVsCode } from '../../src/hosts/vscode.js';
import { readWindsurf } from '../../src/hosts/windsurf.js';
import { readCodex } from '../../src/hosts/codex.js';
import { readGemini } from '../../src/hosts/gemini.js';
import { readZed } from '../../src/hosts/zed.js';
import { readCline } from '../../src/hosts/cline.js';
import { readRoo } from '../../src/hosts/roo.js';
import { readContinue, readContinueJson } from '../../src/hosts/continue.js';
import { readOpencode } from '../../src/hosts/opencode.js';
import { loadParsersFor } from '../../src/hosts/host-parsers.js';

// The YAML and TOML parsers are loaded on demand (findHostFiles does it for the files it found).
beforeAll(() => loadParsersFor(['config.yaml', 'config.toml']));

const context = { projectDir: '/work/proj', home: '/home/u' };

describe('host readers (pure: text in, toolrun entries out)', () => {
  it('Claude Desktop: mcpServers as they are; a ${ stays literal (escaped for toolrun)', () => {
    const read = readClaudeDesktop(JSON.stringify({ mcpServers: { a: { command: 'node', args: ['${X}'], env: { K: 'v' }, autoApprove: [] } } }), context);
    expect(read.problems).toEqual([]);
    expect(read.servers[0]).toMatchObject({ name: 'a', entry: { command: 'node', args: ['$${X}'], env: { K: 'v' } }, unsupported: ['autoApprove'], disabled: false });
  });

  it('a parse error is a problem with line:column, not a throw', () => {
    expect(readCursor('{\n  "mcpServers": {\n    "a": }\n}', context).problems[0]).toMatch(/^3:10: invalid JSON/);
    expect(readCodex('[mcp_servers.a\ncommand = 1', context).problems[0]).toMatch(/^1:\d+: invalid TOML/);
    expect(readContinue('mcpServers:\n  - name: a\n   command: [', context).problems[0]).toMatch(/^\d+:\d+: invalid YAML/);
    expect(readClaudeDesktop('{"__proto__": {}}', context).problems[0]).toMatch(/__proto__/);
  });

  it('Claude Code: user mcpServers, local projects.<path>.mcpServers, project .mcp.json; ${VAR:-d} kept for toolrun', () => {
    const home = JSON.stringify({
      mcpServers: { u: { command: 'u' } },
      projects: { '/work/proj': { mcpServers: { l: { type: 'http', url: 'https://x/${HOST:-h}' } } }, '/other': { mcpServers: { o: { command: 'o' } } } },
    });
    expect(readClaudeCodeUser(home, context).servers.map((server) => server.name)).toEqual(['u']);
    expect(readClaudeCodeLocal(home, context).servers).toMatchObject([{ name: 'l', entry: { type: 'http', url: 'https://x/${HOST:-h}' } }]);
    expect(readClaudeCodeProject(JSON.stringify({ mcpServers: { p: { command: '${BIN}' } } }), context).servers[0]!.entry.command).toBe('${BIN}');
  });

  it('Cursor / VS Code: ${env:X} kept (VS Code: empty when unset), ${workspaceFolder} and ${userHome} filled in, ${input:id} unresolved, envFile carried from the project folder', () => {
    const cursor = readCursor(JSON.stringify({ mcpServers: { a: { command: '${userHome}/bin/s', args: ['${workspaceFolder}'], env: { T: '${env:TOKEN}' }, envFile: '.env' } } }), context);
    expect(cursor.servers[0]).toMatchObject({ entry: { command: '/home/u/bin/s', args: ['/work/proj'], env: { T: '${env:TOKEN}' }, envFile: '/work/proj/.env' }, unsupported: [], unresolved: [] });
    const vscode = readVsCode('// c\n{"inputs": [{"id": "tok", "type": "promptString"}], "servers": {"gh": {"type": "stdio", "command": "npx", "env": {"T": "${input:tok}"},}}}', context);
    expect(vscode.servers[0]).toMatchObject({ name: 'gh', entry: { type: 'stdio' }, unresolved: ['${input:tok}'] });
    const unset = readVsCode('{"servers": {"a": {"command": "s", "env": {"T": "${env:TOKEN}"}, "envFile": "${workspaceFolder}/.env"}}}', context);
    expect(unset.servers[0]!.entry).toMatchObject({ env: { T: '${TOKEN:-}' }, envFile: '/work/proj/.env' });
  });

  it('Windsurf serverUrl; Gemini url (SSE) vs httpUrl (HTTP) and $VAR (unset: left as written, in env: empty)', () => {
    expect(readWindsurf(JSON.stringify({ mcpServers: { r: { serverUrl: 'https://w/mcp' } } }), context).servers[0]!.entry).toEqual({ url: 'https://w/mcp' });
    const gemini = readGemini(
      JSON.stringify({ mcpServers: { s: { url: 'https://g/sse' }, h: { httpUrl: 'https://g/mcp', headers: { A: '$TOKEN' } }, l: { command: 'x', env: { K: '$HOME/y' }, trust: true, timeout: 5 } } }),
      context,
    );
    expect(gemini.servers.map((server) => server.entry)).toEqual([
      { url: 'https://g/sse', type: 'sse' },
      { url: 'https://g/mcp', headers: { A: '${TOKEN:-$TOKEN}' }, type: 'http' },
      { command: 'x', env: { K: '${HOME:-}/y' } },
    ]);
    expect(gemini.servers[2]!.unsupported).toEqual(['trust', 'timeout']);
  });

  it('Zed context_servers, flat and nested command, enabled: false', () => {
    const zed = readZed('{"context_servers": {"a": {"source": "custom", "command": "c", "args": ["1"], "enabled": false}, "b": {"command": {"path": "p", "args": ["2"], "env": {}}}}}', context);
    expect(zed.servers).toMatchObject([
      { name: 'a', entry: { command: 'c', args: ['1'] }, disabled: true, unsupported: [] },
      { name: 'b', entry: { command: 'p', args: ['2'], env: {} }, disabled: false },
    ]);
  });

  it('Cline and Roo: disabled honoured, streamableHttp/streamable-http → http, autoApprove/alwaysAllow named', () => {
    expect(readCline(JSON.stringify({ mcpServers: { a: { type: 'streamableHttp', url: 'https://c', disabled: true, autoApprove: [] } } }), context).servers[0]).toMatchObject({
      entry: { type: 'http', url: 'https://c' },
      disabled: true,
      unsupported: ['autoApprove'],
    });
    expect(readRoo(JSON.stringify({ mcpServers: { a: { command: 'x', env: { T: '${env:T}' }, alwaysAllow: ['t'] } } }), context).servers[0]).toMatchObject({
      entry: { env: { T: '${env:T}' } },
      unsupported: ['alwaysAllow'],
    });
  });

  it('Codex: [mcp_servers.NAME] with env table, timeouts, env_vars, bearer_token_env_var, enabled', () => {
    const codex = readCodex(
      '[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "d"]\nenv_vars = ["HOME"]\nstartup_timeout_sec = 20\ntool_timeout_sec = 60\n[mcp_servers.docs.env]\nKEY = "${v}"\n[mcp_servers.r]\nurl = "https://r"\nbearer_token_env_var = "TOK"\nenabled = false\n',
      context,
    );
    expect(codex.servers[0]).toMatchObject({ entry: { command: 'npx', args: ['-y', 'd'], env: { KEY: '$${v}', HOME: '${HOME:-}' }, connectTimeoutMs: 20000 }, unsupported: ['tool_timeout_sec'] });
    expect(codex.servers[1]).toMatchObject({ entry: { url: 'https://r', type: 'http', headers: { Authorization: 'Bearer ${TOK}' } }, disabled: true });
  });

  it('Continue: mcpServers as a list, ${{ secrets.X }} unresolved; JSON block files in the mcpServers shape', () => {
    const yaml = readContinue('name: c\nversion: 1\nmcpServers:\n  - name: pw\n    command: npx\n    args: ["@playwright/mcp"]\n    env:\n      K: ${{ secrets.K }}\n', context);
    expect(yaml.servers[0]).toMatchObject({ name: 'pw', entry: { command: 'npx', args: ['@playwright/mcp'] }, unresolved: ['${{ secrets.K }}'] });
    expect(readContinueJson('{"mcpServers": {"j": {"command": "j"}}}', context).servers[0]!.name).toBe('j');
  });

  it('opencode: mcp with type local (command array, environment) and remote, {env:VAR}, enabled: false', () => {
    const read = readOpencode(
      '{"mcp": {"l": {"type": "local", "command": ["bun", "x", "s"], "environment": {"K": "{env:K}"}, "enabled": false}, "r": {"type": "remote", "url": "https://o", "headers": {"A": "{file:~/.t}"}}}}',
      context,
    );
    expect(read.servers[0]).toMatchObject({ entry: { command: 'bun', args: ['x', 's'], env: { K: '${K:-}' }, type: 'stdio' }, disabled: true, unsupported: [] });
    expect(read.servers[1]).toMatchObject({ entry: { url: 'https://o' }, unresolved: ['{file:~/.t}'] });
  });

  it('500 servers are all read', () => {
    const servers = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`s${index}`, { command: 'node', args: [String(index)] }]));
    expect(readCursor(JSON.stringify({ mcpServers: servers }), context).servers).toHaveLength(500);
  });
});

describe('variable styles', () => {
  it('Claude Code expands only ${NAME} and ${NAME:-default}: ${env:X} and $X stay text', () => {
    const read = readClaudeCodeProject(JSON.stringify({ mcpServers: { a: { command: 'x', args: ['${A}', '${B:-b}', '${env:C}', '$D'] } } }), context);
    expect(read.servers[0]!.entry.args).toEqual(['${A}', '${B:-b}', '$${env:C}', '$D']);
  });
});
