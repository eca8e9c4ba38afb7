import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

// Servers that misbehave on purpose (SPEC §8): each is reported at once, in one line, and the rest works.

const single = (name: string, file: string, env: Record<string, string> = {}) => writeTempConfig({ retry: { attempts: 1, baseDelayMs: 10 }, mcpServers: { [name]: fixtureServer(file, { env }) } });

describe("a broken tool definition keeps the server's good tools", () => {
  const config = single('b', 'broken-tool-server.js');

  it('exec of a good tool works, with one warning per broken tool', async () => {
    const result = await runInProcess(['--config', config, 'exec', 'b:good']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('fine');
    expect(result.stderr).toContain(`⚠ MCP server 'b': tool 'null_type' left out, its definition is broken: inputSchema.type: expected "object"`);
    expect(result.stderr).toContain(`⚠ MCP server 'b': tool 'no_schema' left out, its definition is broken: inputSchema: expected object, received undefined`);
  });

  it('exec of the broken tool says so (exit 1), not "unreachable"', async () => {
    const result = await runInProcess(['--config', config, 'exec', 'b:null_type']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `✖ b:null_type: Tool 'null_type' of MCP server 'b' has a broken definition (inputSchema.type: expected "object"); the server must fix it. Its other tools work: toolrun list --server b`,
    );
  });

  it('validate: exit 1, each broken tool a finding', async () => {
    const result = await runInProcess(['--config', config, '--json', 'validate']);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.mcp_tools).toBe(4);
    expect(report.tool_findings.filter((finding: { severity: string }) => finding.severity === 'error').map((finding: { tool: string }) => finding.tool)).toEqual(['null_type', 'no_schema']);
  });

  it('doctor: the tools step fails (exit 1); mcp list --check agrees', async () => {
    const doctor = await runInProcess(['--config', config, '--json', 'mcp', 'doctor', 'b']);
    expect(doctor.exitCode).toBe(1);
    const tools = JSON.parse(doctor.stdout).steps.find((step: { id: string }) => step.id === 'tools');
    expect(tools.status).toBe('fail');
    const list = await runInProcess(['--config', config, '--json', 'mcp', 'list', '--check']);
    expect(list.exitCode).toBe(1);
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({ status: 'problem', tools: 4 });
  });
});

describe('a result that fails the MCP schema is one line naming the field', () => {
  const config = single('b', 'broken-tool-server.js');
  it.each([
    ['content_not_array', 'content: expected array, received string'],
    ['unknown_content_type', 'content[0]: not any of the allowed shapes'],
    ['structured_number', 'structuredContent: expected record, received number'],
  ])('%s', async (tool, problem) => {
    const result = await runInProcess(['--config', config, '--json', 'exec', `b:${tool}`]);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error_kind: 'tool_error', error: `MCP server 'b' returned an invalid result for '${tool}': ${problem}` });
    expect(
      result.stderr
        .split('\n')
        .filter((line) => !line.includes('left out'))
        .join('\n'),
    ).toBe('');
  });
});

describe('endless tools/list pagination ends (exec, list, doctor)', () => {
  it.each([
    ['forever', 'tools/list never ends: still paging after 1000 pages'],
    ['repeat', 'tools/list never ends: the server sent the same cursor again after 2 pages'],
  ])(
    'PAGES=%s',
    async (mode, reason) => {
      // The page limit must be what ends it, not the connect timeout: 1000 round trips took over the
      // default 10 s once on a loaded 2-core machine.
      const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 10 }, mcpServers: { p: fixtureServer('endless-pages-server.js', { env: { PAGES: mode }, connectTimeoutMs: 90_000 }) } });
      for (const args of [['exec', 'p:tool_1'], ['list'], ['mcp', 'doctor', 'p']]) {
        const result = await runInProcess(['--config', config, ...args]);
        expect(result.exitCode, args.join(' ')).toBe(4);
        expect(result.stderr + result.stdout).toContain(reason);
      }
    },
    150_000,
  );
});

describe('a call the server can no longer answer is reported at once, not at the timeout', () => {
  it.each([
    ['wrong-id', `the server answered request id "2-x", which toolrun never sent (its ids are mangled); the request waiting for an answer will not get one`],
    ['close-stdout', 'the server closed its stdout but is still running'],
    ['huge-line', 'the server sent a stdout line of 52428873 bytes, over the 10 MB limit; toolrun dropped it (it was probably the answer)'],
  ])(
    'FAULT=%s',
    async (fault, message) => {
      const config = single('f', 'call-fault-server.js', { FAULT: fault });
      // A timeout far beyond the test's own: only an immediate report passes.
      const result = await runInProcess(['--config', config, '--timeout', '600000', '--json', 'exec', 'f:call']);
      expect(result.exitCode).toBe(1);
      const envelope = JSON.parse(result.stdout);
      expect(envelope.error).toContain(`MCP server 'f': ${message}`);
      expect(envelope.server_stderr).toEqual([`call-fault-server: ${fault}`]);
    },
    20_000,
  );
});

describe('escape sequences from a server are shown, never interpreted', () => {
  const config = single('e', 'escapes-server.js');
  it.each([[['list']], [['mcp', 'doctor', 'e']], [['--verbose', 'exec', 'e:esc']], [['mcp', 'check-stdout', 'e']]])('%j', async (args) => {
    const result = await runInProcess(['--config', config, ...args]);
    expect(result.stdout + result.stderr).not.toContain('\x1b');
    expect(result.stdout + result.stderr).not.toContain('\x07');
  });

  // Issue #19 item 19: a line break in any cell would forge a row; it is spelled out like \r and ESC.
  it.each([
    [['list', '--server', 'e'], 'a\\nforged   mcp:x   -   row*: string'.replace('*', '')],
    [['resources'], 'one\\x0dtwo  text/plain\\nforged   test://two   two\\tx'],
    [['prompts'], 'x\\ny*'],
    [['prompts'], 'first\\nforged   q   -   row'],
  ])('%j: one line per row, the line break spelled out', async (args, cell) => {
    const result = await runInProcess(['--config', config, ...args]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(cell);
    expect(result.stdout).not.toMatch(/[\r\t]/);
  });

  it('mcp list: a server name with a line break stays on its row', async () => {
    const named = writeTempConfig({ mcpServers: { 'e\nforged  stdio  row': fixtureServer('escapes-server.js') } });
    for (const args of [
      ['mcp', 'list'],
      ['mcp', 'list', '--check'],
    ]) {
      const result = await runInProcess(['--config', named, ...args]);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^e\\nforged {2}stdio {2}row /);
    }
  });

  it('the description shows the escapes as text', async () => {
    const result = await runInProcess(['--config', config, 'list']);
    expect(result.stdout).toContain('Clears \\x1b[2J\\x1b]0;pwned-title\\x07 the screen');
  });
});

// Issue #31 item 10.
describe('what toolrun builds around server text is escaped too', () => {
  it("a resource link's name and URI: no ESC reaches stdout, even redirected", async () => {
    const config = writeTempConfig({ mcpServers: { h: fixtureServer('hostile-names-server.js', { env: { LINK_URI: 'note://a\x1b]0;pwned\x07b' } }) } });
    const result = await runInProcess(['--config', config, 'exec', 'h:link']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/[\x1b\x07]/);
    expect(result.stdout).toContain('[link note://a\\x1b]0;pwned\\x07b (notes \\x1b[2J\\x1b]0;pwned-title\\x07), text/plain] read it: ');
  });

  it('a bidi override in a description is spelled out', async () => {
    const config = writeTempConfig({ mcpServers: { h: fixtureServer('hostile-names-server.js') } });
    const result = await runInProcess(['--config', config, 'list', '--server', 'h']);
    expect(result.stdout).toContain('reads \\u202etxt.exe');
    expect(result.stdout).not.toContain('\u202e');
  });

  it('a server name with a line break cannot forge a warning line', async () => {
    const config = writeTempConfig({
      mcpServers: { 'b\n⚠ forged warning': fixtureServer('broken-tool-server.js'), 'p\n⚠ forged pollution': fixtureServer('polluting-server.js') },
    });
    const result = await runInProcess(['--config', config, '--verbose', 'list']);
    const lines = result.stderr.split('\n');
    expect(
      lines.filter((line) => line.startsWith('⚠ forged')),
      result.stderr,
    ).toEqual([]);
    expect(result.stderr).toContain("⚠ MCP server 'b\\n⚠ forged warning': tool 'null_type' left out");
    expect(result.stderr).toContain('⚠ [p\\n⚠ forged pollution] stdout line 1 is not JSON-RPC');
  });
});

describe('scale', () => {
  it('list prints all 10,000 tools of one server (list is linear: see npm run bench)', async () => {
    const config = single('many', 'many-tools-server.js');
    const result = await runInProcess(['--config', config, '--json', 'list']);
    expect(result.exitCode).toBe(0);
    const names = JSON.parse(result.stdout).tools.map((tool: { name: string }) => tool.name);
    expect(names).toHaveLength(10_003);
    expect(names.at(-1)).toBe('tool_9999');
  });
});
