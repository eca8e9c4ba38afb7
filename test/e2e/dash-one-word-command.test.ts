import { join } from 'node:path';
import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue 47 item 2: `-- COMMAND` with one word is a command. Most official servers are one-word
// binaries (`mcp-server-memory`, installed by npm into node_modules/.bin); it was read as a server
// name: "unknown MCP server 'mcp-server-memory'", exit 2.

const env = () => ({ PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`, MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl') });

describe('-- COMMAND with one word', () => {
  const empty = () => writeTempConfig({ mcpServers: {} });

  it('snapshot, conform, doctor, lint and check-stdout run `-- mcp-server-memory` as a command', async () => {
    const config = empty();
    const run = (args: string[]) => runCleanInProcess(['--config', config, ...args], { env: env() });
    const [snapshot, conform, doctor, lint, checkStdout] = await Promise.all([
      run(['mcp', 'snapshot', '--', 'mcp-server-memory']),
      run(['--json', 'mcp', 'conform', '--', 'mcp-server-memory']),
      run(['--json', 'mcp', 'doctor', '--', 'mcp-server-memory']),
      run(['--json', 'mcp', 'lint', '--target', 'openai', '--', 'mcp-server-memory']),
      run(['--json', 'mcp', 'check-stdout', '--', 'mcp-server-memory']),
    ]);
    expect(snapshot.exitCode).toBe(0);
    expect(JSON.parse(snapshot.stdout)).toMatchObject({ server: { name: 'memory-server' } });
    expect(JSON.parse(snapshot.stdout).tools.map((tool: { name: string }) => tool.name)).toContain('read_graph');
    expect(conform.exitCode).toBe(0);
    expect(JSON.parse(conform.stdout)).toMatchObject({ server: 'mcp-server-memory', transport: 'stdio' });
    expect(doctor.exitCode).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({ server: 'mcp-server-memory' });
    expect(lint.stderr).toBe('');
    expect(JSON.parse(lint.stdout)).toMatchObject({ servers: [{ server: 'mcp-server-memory', tools: 9 }] });
    expect(checkStdout).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(checkStdout.stdout)).toMatchObject({ source: { server: 'mcp-server-memory' }, summary: { polluting_lines: 0 } });
  });

  it('check-stdout: --call and its ARGS before --, the command after it', async () => {
    const result = await runCleanInProcess(['--config', empty(), '--json', 'mcp', 'check-stdout', '--call', 'search_nodes', 'query=widget', '--', 'mcp-server-memory'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      source: { server: 'mcp-server-memory', steps: ['server/discover', 'initialize', 'tools/list', 'ping', 'tools/call search_nodes'] },
      summary: { polluting_lines: 0 },
    });
  });

  it('a configured name after -- is that server (the GitHub Action passes it so); a word starting with - is never run', async () => {
    const config = writeTempConfig({ mcpServers: { memory: { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')] } } });
    const [named, option, optionLint] = await Promise.all([
      runCleanInProcess(['--config', config, 'mcp', 'snapshot', '--', 'memory'], { env: env() }),
      runCleanInProcess(['--config', config, 'mcp', 'check-stdout', '--', '--config=evil.json'], { env: env() }),
      runCleanInProcess(['--config', config, 'mcp', 'lint', '--', '--config=evil.json'], { env: env() }),
    ]);
    expect(named.exitCode).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ server: { name: 'memory-server' } });
    for (const run of [option, optionLint]) {
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain("unknown MCP server '--config=evil.json'");
    }
  });
});
