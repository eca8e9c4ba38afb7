import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { parse as parseJsonc } from 'jsonc-parser';
import { entryPlaceOf, WrapRefusal } from '../../src/hosts/entry-command.js';
import { readCommandLine, unwrapEntryText, wrapEntryText } from '../../src/hosts/wrap-entry.js';
import { loadParsersFor } from '../../src/hosts/host-parsers.js';
import type { HostName } from '../../src/hosts/host-types.js';

beforeAll(() => loadParsersFor(['config.yaml', 'config.toml']));

const TAP = ['/usr/bin/node', '/opt/toolrun/bin/toolrun.js', 'mcp', 'tap', '--name', 'fs'];

/** Wraps `name` in `text`, checks the command line the host will now run, then unwraps: the original bytes exactly. */
function roundTrip(host: HostName, path: string, text: string, name: string, original: string[], scope: 'user' | 'project' | 'local' = 'user', projectDir = '/p') {
  const place = entryPlaceOf(host, path, scope, projectDir, name);
  expect(readCommandLine(text, place)).toEqual(original);
  const wrapped = wrapEntryText(text, place, TAP);
  expect(wrapped.commandLine).toEqual(original);
  expect(readCommandLine(wrapped.text, place)).toEqual([...TAP, '--', ...original]);
  // Only the entry's text changed.
  const at = text.indexOf(wrapped.entryBefore);
  expect(wrapped.text.slice(0, at)).toBe(text.slice(0, at));
  expect(wrapped.text.slice(at + wrapped.entryAfter.length)).toBe(text.slice(at + wrapped.entryBefore.length));
  const unwrapped = unwrapEntryText(wrapped.text, place, { ...wrapped, original: text }, false);
  expect(unwrapped).toEqual({ outcome: 'restored', text, overEdits: false });
  return { place, wrapped };
}

const JSONC = `// Cursor's servers
{
  /* the one we watch */
  "mcpServers": {
    "fs": {
      "command": "npx", // the runner
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem", // pinned later
        "/tmp",
      ],
      "env": { "DEBUG": "1", "TOKEN": "\${env:TOKEN}" },
    },
    "other": { "command": "uvx", "args": ["other"] },
  },
}
`;

describe('wrapEntryText / unwrapEntryText: only the command line changes, and unwrap gives back the bytes', () => {
  it('JSONC with comments and trailing commas: command and args replaced in place, env and comments kept', () => {
    const { wrapped } = roundTrip('cursor', '/h/.cursor/mcp.json', JSONC, 'fs', ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
    expect(wrapped.text).toContain('"command": "/usr/bin/node", // the runner\n      "args": ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "npx", "-y"');
    expect(wrapped.text).toContain('"env": { "DEBUG": "1", "TOKEN": "${env:TOKEN}" },\n    },\n    "other": { "command": "uvx", "args": ["other"] },');
    expect(parseJsonc(wrapped.text, [], { allowTrailingComma: true }).mcpServers.fs.env).toEqual({ DEBUG: '1', TOKEN: '${env:TOKEN}' });
  });

  it('an entry without args gets an args line after its command, at its indentation; one-line entries stay on one line', () => {
    const text = '{\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"command": "server-a",\n\t\t\t"env": {}\n\t\t},\n\t\t"b": {"command": "b"}\n\t}\n}';
    const { wrapped } = roundTrip('claude-desktop', '/h/c.json', text, 'a', ['server-a']);
    expect(wrapped.text).toContain('\t\t\t"command": "/usr/bin/node",\n\t\t\t"args": ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "server-a"],\n\t\t\t"env": {}');
    const { wrapped: b } = roundTrip('claude-desktop', '/h/c.json', text, 'b', ['b']);
    expect(b.entryAfter).toBe('{"command": "/usr/bin/node", "args": ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "b"]}');
  });

  it("Claude Code's local scope: projects[<folder>].mcpServers, not the user's entry of the same name", () => {
    const text = JSON.stringify({ mcpServers: { fs: { command: 'user-fs' } }, projects: { '/p': { mcpServers: { fs: { command: 'local-fs', args: ['x'] } } } } }, null, 2);
    const { wrapped } = roundTrip('claude-code', '/h/.claude.json', text, 'fs', ['local-fs', 'x'], 'local', '/p');
    expect(JSON.parse(wrapped.text).mcpServers.fs).toEqual({ command: 'user-fs' });
  });

  it('VS Code servers with type stdio; strings with quotes, backslashes and non-ASCII survive', () => {
    const text = '{"servers": {"fs": {"type": "stdio", "command": "C:\\\\bin\\\\srv.exe", "args": ["a \\"b\\"", "é\\u007f"]}}, "inputs": []}';
    roundTrip('vscode', '/p/.vscode/mcp.json', text, 'fs', ['C:\\bin\\srv.exe', 'a "b"', 'é\u007f']);
  });

  it('opencode: command as an array, type local', () => {
    const text = '{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "fs": { "type": "local", "command": ["npx", "-y", "srv"], "enabled": true }\n  }\n}\n';
    const { wrapped } = roundTrip('opencode', '/h/opencode.json', text, 'fs', ['npx', '-y', 'srv']);
    expect(wrapped.entryAfter).toBe('{ "type": "local", "command": ["/usr/bin/node", "/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "npx", "-y", "srv"], "enabled": true }');
  });

  it('Zed: the nested command {path, args, env} and the flat form', () => {
    const nested =
      '// Zed settings\n{\n  "theme": "One Dark",\n  "context_servers": {\n    "fs": {\n      "source": "custom",\n      "command": { "path": "node", "args": ["srv.js"], "env": { "A": "1" } },\n    },\n    "flat": { "command": "x", "args": [], "enabled": true },\n  },\n}\n';
    const { wrapped } = roundTrip('zed', '/h/zed/settings.json', nested, 'fs', ['node', 'srv.js']);
    expect(wrapped.entryAfter).toContain('"command": { "path": "/usr/bin/node", "args": ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "node", "srv.js"], "env": { "A": "1" } }');
    roundTrip('zed', '/h/zed/settings.json', nested, 'flat', ['x']);
  });

  it('Codex TOML: comments, an env table, a multi-line args array with comments; CRLF; an entry without args', () => {
    const text = [
      '# Codex config',
      'model = "o4-mini"',
      '',
      '[mcp_servers.fs]  # the filesystem server',
      'command = "npx"   # runner',
      'args = [',
      '  "-y", # yes',
      "  '@modelcontextprotocol/server-filesystem',",
      '  """/tmp""",',
      ']',
      'startup_timeout_sec = 20',
      '',
      '[mcp_servers.fs.env]',
      'TOKEN = "abc"',
      '',
      '[mcp_servers.bare]',
      '  command = "bare-server"',
      '  cwd = "/srv"',
      '  env = { A = "1", B = "}" }',
      '',
      '[other]',
      'x = 1979-05-27 07:32:00Z',
      '',
    ].join('\n');
    const { wrapped } = roundTrip('codex', '/h/.codex/config.toml', text, 'fs', ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
    expect(wrapped.entryAfter).toBe(
      '[mcp_servers.fs]  # the filesystem server\ncommand = "/usr/bin/node"   # runner\nargs = ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"]\nstartup_timeout_sec = 20',
    );
    expect((parseToml(wrapped.text) as { mcp_servers: { fs: { env: unknown } } }).mcp_servers.fs.env).toEqual({ TOKEN: 'abc' });
    const { wrapped: bare } = roundTrip('codex', '/h/.codex/config.toml', text, 'bare', ['bare-server']);
    expect(bare.entryAfter).toBe(
      '[mcp_servers.bare]\n  command = "/usr/bin/node"\n  args = ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "bare-server"]\n  cwd = "/srv"\n  env = { A = "1", B = "}" }',
    );
    const crlf = roundTrip('codex', '/h/.codex/config.toml', text.replaceAll('\n', '\r\n'), 'bare', ['bare-server']);
    expect(crlf.wrapped.text).not.toMatch(/[^\r]\n/);
  });

  it('Codex TOML: a line inside a multi-line string that looks like the table header is not taken for it; brackets in strings', () => {
    const text = 'notes = """\n[mcp_servers.fs]\ncommand = "fake"\n"""\nquote = \'\'\'\n[x]\n\'\'\'\n\n[mcp_servers.fs]\ncommand = "real"\nargs = ["a]", \'b[\', "#c"] # end\n';
    const { wrapped } = roundTrip('codex', '/h/.codex/config.toml', text, 'fs', ['real', 'a]', 'b[', '#c']);
    expect(wrapped.text.startsWith('notes = """\n[mcp_servers.fs]\ncommand = "fake"\n"""')).toBe(true);
    expect(wrapped.entryAfter.endsWith('"--", "real", "a]", "b[", "#c"] # end')).toBe(true);
  });

  it('Continue YAML: mcpServers as a list; a block args list, a flow one, none; comments kept', () => {
    const text = [
      'name: my assistant',
      'version: 1.0.0',
      'mcpServers:',
      '  # the filesystem server',
      '  - name: fs',
      '    command: npx # runner',
      '    args:',
      '      - -y',
      "      - '@modelcontextprotocol/server-filesystem'  # pinned",
      '      - /tmp',
      '    env:',
      '      DEBUG: "1"',
      '  - name: flow',
      '    command: "uvx"',
      '    args: [srv, --flag]',
      '  - command: solo',
      '    name: solo',
      '  - {name: inline, command: x, args: []}',
      '',
    ].join('\n');
    const { wrapped } = roundTrip('continue', '/h/.continue/config.yaml', text, 'fs', ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
    expect(wrapped.entryAfter).toBe(
      'name: fs\n    command: "/usr/bin/node" # runner\n    args:\n      - "/opt/toolrun/bin/toolrun.js"\n      - "mcp"\n      - "tap"\n      - "--name"\n      - "fs"\n      - "--"\n      - "npx"\n      - "-y"\n      - "@modelcontextprotocol/server-filesystem"\n      - "/tmp"\n    env:\n      DEBUG: "1"\n',
    );
    expect((parseYaml(wrapped.text) as { mcpServers: Array<{ env?: unknown }> }).mcpServers[0]!.env).toEqual({ DEBUG: '1' });
    roundTrip('continue', '/h/.continue/config.yaml', text, 'flow', ['uvx', 'srv', '--flag']);
    const { wrapped: solo } = roundTrip('continue', '/h/.continue/config.yaml', text, 'solo', ['solo']);
    expect(solo.entryAfter).toBe('command: "/usr/bin/node"\n    args: ["/opt/toolrun/bin/toolrun.js", "mcp", "tap", "--name", "fs", "--", "solo"]\n    name: solo\n');
    roundTrip('continue', '/h/.continue/config.yaml', text, 'inline', ['x']);
  });
});

describe('unwrapEntryText after the file changed', () => {
  const place = entryPlaceOf('cursor', '/h/.cursor/mcp.json', 'user', '/p', 'fs');

  it('another entry edited: the wrapped entry is put back and the other edit kept', () => {
    const wrapped = wrapEntryText(JSONC, place, TAP);
    const edited = wrapped.text.replace('"args": ["other"]', '"args": ["other", "--verbose"]');
    const result = unwrapEntryText(edited, place, { ...wrapped, original: JSONC }, false);
    expect(result).toEqual({ outcome: 'restored', text: JSONC.replace('"args": ["other"]', '"args": ["other", "--verbose"]'), overEdits: false });
  });

  it('the entry itself edited: changed (or put back over the edit with force); the entry removed: gone', () => {
    const wrapped = wrapEntryText(JSONC, place, TAP);
    const edited = wrapped.text.replace('"DEBUG": "1"', '"DEBUG": "2"');
    expect(unwrapEntryText(edited, place, { ...wrapped, original: JSONC }, false)).toEqual({ outcome: 'changed' });
    expect(unwrapEntryText(edited, place, { ...wrapped, original: JSONC }, true)).toEqual({ outcome: 'restored', text: JSONC, overEdits: true });
    const gone = wrapped.text.replace(wrapped.entryAfter, '{}').replace('"fs": {}', '"renamed": {}');
    expect(unwrapEntryText(gone, place, { ...wrapped, original: JSONC }, false)).toEqual({ outcome: 'gone' });
  });
});

describe('what --wrap refuses, leaving the text alone', () => {
  const refusal = (host: HostName, path: string, text: string, name = 'fs') => {
    try {
      wrapEntryText(text, entryPlaceOf(host, path, 'user', '/p', name), TAP);
    } catch (error) {
      expect(error).toBeInstanceOf(WrapRefusal);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it('remote entries, in each host shape: tap is stdio only', () => {
    expect(refusal('cursor', '/m.json', '{"mcpServers": {"fs": {"url": "https://x/mcp"}}}')).toMatch(/'fs' is a remote server \(https:\/\/x\/mcp\): tap is for stdio servers only/);
    expect(refusal('windsurf', '/m.json', '{"mcpServers": {"fs": {"serverUrl": "https://x/sse"}}}')).toMatch(/remote/);
    expect(refusal('gemini', '/m.json', '{"mcpServers": {"fs": {"httpUrl": "https://x/mcp"}}}')).toMatch(/remote/);
    expect(refusal('opencode', '/o.json', '{"mcp": {"fs": {"type": "remote", "url": "https://x/mcp"}}}')).toMatch(/remote/);
    expect(refusal('codex', '/c.toml', '[mcp_servers.fs]\nurl = "https://x/mcp"\n')).toMatch(/remote/);
    expect(refusal('continue', '/c.yaml', 'mcpServers:\n  - name: fs\n    type: sse\n    url: https://x/sse\n')).toMatch(/remote/);
  });

  it('an entry already run through the tap, by toolrun or by hand', () => {
    const wrapped = wrapEntryText(JSONC, entryPlaceOf('cursor', '/m.json', 'user', '/p', 'fs'), TAP).text;
    expect(refusal('cursor', '/m.json', wrapped)).toMatch(/already runs through toolrun mcp tap/);
    expect(refusal('cursor', '/m.json', '{"mcpServers": {"fs": {"command": "toolrun", "args": ["mcp", "tap", "--", "npx", "srv"]}}}')).toMatch(/already/);
  });

  it('shapes toolrun does not edit: a Codex inline table, dotted keys; duplicate keys; args that are not strings', () => {
    expect(refusal('codex', '/c.toml', '[mcp_servers]\nfs = { command = "npx", args = ["srv"] }\n')).toMatch(/not written as a \[mcp_servers\.fs\] table of its own/);
    expect(refusal('codex', '/c.toml', 'mcp_servers.fs.command = "npx"\n')).toMatch(/not written as a \[mcp_servers\.fs\] table/);
    expect(refusal('cursor', '/m.json', '{"mcpServers": {"fs": {"command": "a"}, "fs": {"command": "b"}}}')).toMatch(/"fs" appears 2 times/);
    expect(refusal('cursor', '/m.json', '{"mcpServers": {"fs": {"command": "a", "args": [1]}}}')).toMatch(/not a list of strings/);
    expect(refusal('continue', '/c.yaml', 'mcpServers:\n  - name: fs\n    command: a\n  - name: fs\n    command: b\n')).toMatch(/2 entries are named 'fs'/);
  });

  it('a server that is not there', () => {
    expect(refusal('cursor', '/m.json', '{"mcpServers": {}}')).toMatch(/'fs' is not in the file/);
  });
});
