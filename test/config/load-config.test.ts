import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, readConfigFile } from '../../src/config/load-config.js';
import { resolveServer } from '../../src/config/resolve-server.js';
import { ConfigError } from '../../src/errors.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'toolrun-config-'));
}

function writeConfig(dir: string, text: string, name = 'toolrun.config.json'): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function configError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

describe('config discovery', () => {
  it('uses the embedded default when nothing is configured', async () => {
    const config = await loadConfig({ cwd: tempDir(), env: {} });
    expect(config.path).toBeNull();
    expect(config.tools).toEqual([]);
    expect(config.servers).toEqual({});
    expect(config.timeoutMs).toBe(30_000);
    expect(config.retry).toEqual({ attempts: 3, baseDelayMs: 2000 });
  });

  it('prefers --config, then $TOOLRUN_CONFIG, then ./toolrun.config.json', async () => {
    const dir = tempDir();
    writeConfig(dir, '{"timeoutMs": 1}');
    const fromEnv = writeConfig(dir, '{"timeoutMs": 2}', 'env.json');
    const explicit = writeConfig(dir, '{"timeoutMs": 3}', 'explicit.json');
    expect((await loadConfig({ cwd: dir, env: {} })).timeoutMs).toBe(1);
    expect((await loadConfig({ cwd: dir, env: { TOOLRUN_CONFIG: fromEnv } })).timeoutMs).toBe(2);
    expect((await loadConfig({ cwd: dir, env: { TOOLRUN_CONFIG: fromEnv }, configPath: explicit })).timeoutMs).toBe(3);
  });

  it('fails on a named config that does not exist instead of falling back', async () => {
    const dir = tempDir();
    const message = await configError(loadConfig({ cwd: dir, env: {}, configPath: 'nope.json' }));
    expect(message).toBe(
      `config file not found: ${join(dir, 'nope.json')} (named by --config). Check the path, or leave out --config/TOOLRUN_CONFIG to use ./toolrun.config.json or the built-in default.`,
    );
  });
});

describe('config parsing', () => {
  it('accepts comments and trailing commas (JSONC)', async () => {
    const dir = tempDir();
    writeConfig(dir, '// comment\n{ /* inline */ "slowToolMs": 5, }\n');
    expect((await loadConfig({ cwd: dir, env: {} })).slowToolMs).toBe(5);
  });

  it('reports syntax errors with file, line and column', async () => {
    const dir = tempDir();
    const path = writeConfig(dir, '{\n  "timeoutMs": 10\n  "slowToolMs": 5\n}\n');
    expect(await configError(loadConfig({ cwd: dir, env: {} }))).toBe(`${path}:3:3: invalid JSON: ',' expected`);
  });

  it('names the JSON path of a wrong type', async () => {
    const dir = tempDir();
    const path = writeConfig(dir, '{"mcpServers": {"zwave": {"command": "node", "args": "index.js"}}}');
    expect(await configError(loadConfig({ cwd: dir, env: {} }))).toBe(`${path}: mcpServers.zwave.args: must be an array of strings, found string`);
  });

  it('rejects an unknown implementation type', async () => {
    const dir = tempDir();
    const path = writeConfig(dir, '{"tools": [{"name": "a", "description": "d", "implementation": {"type": "mok"}}]}');
    expect(await configError(loadConfig({ cwd: dir, env: {} }))).toBe(`${path}: tools[0].implementation.type: unknown implementation type "mok"; use one of: builtin, mock, internal`);
  });

  it('counts further problems and points at validate', async () => {
    const dir = tempDir();
    writeConfig(dir, '{"timeoutMs": -1, "slowToolMs": "x", "tools": {}}');
    const message = await configError(loadConfig({ cwd: dir, env: {} }));
    expect(message).toMatch(/timeoutMs: must be a positive integer, found -1 \(and 2 more problems: run 'toolrun validate'\)$/);
  });

  it('reads an empty file as a clear error', async () => {
    const dir = tempDir();
    const path = writeConfig(dir, '  \n');
    expect(await configError(loadConfig({ cwd: dir, env: {} }))).toBe(`config file is empty: ${path}. Put a JSON object in it, e.g. {"mcpServers": {}}.`);
  });

  it("accepts VS Code's servers block and type field", async () => {
    const dir = tempDir();
    writeConfig(dir, '{"servers": {"a": {"type": "stdio", "command": "node"}, "b": {"type": "http", "url": "http://127.0.0.1:1/mcp"}, "c": {"type": "sse", "url": "http://127.0.0.1:2/sse"}}}');
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.servers.a).toMatchObject({ transport: 'stdio', command: 'node', args: [], cwd: dir });
    expect(config.servers.b).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:1/mcp' });
    expect(config.servers.c).toMatchObject({ transport: 'sse' });
  });

  it('resolves internal modules and cwd against the config folder', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    const path = writeConfig(
      join(dir, 'sub'),
      JSON.stringify({
        mcpServers: { s: { command: 'node', cwd: '..' } },
        tools: [{ name: 't', description: 'd', implementation: { type: 'internal', module: './tools/t.js', handler: 'h' } }],
      }),
    );
    const config = await loadConfig({ cwd: tempDir(), env: {}, configPath: path });
    expect(config.tools[0]!.implementation).toEqual({ type: 'internal', module: join(dir, 'sub', 'tools', 't.js'), handler: 'h' });
    expect(resolveServer(config, config.servers.s!, {})).toMatchObject({ cwd: dir });
  });

  it('collects every problem for validate', async () => {
    const dir = tempDir();
    const path = writeConfig(dir, '{"retry": {"attempts": 0}, "mcpServers": {"x": {}}}');
    const { problems } = await readConfigFile({ path, origin: '--config' });
    expect(problems.map((problem) => problem.path)).toEqual(['retry.attempts', 'mcpServers.x.command']);
  });
});

describe('${VAR} expansion', () => {
  it('expands variables and defaults per server, lazily', async () => {
    const dir = tempDir();
    writeConfig(
      dir,
      JSON.stringify({
        mcpServers: {
          zwave: { command: 'node', args: ['${SERVER_JS}'], env: { BROKER: '${BROKER_URL:-mqtt://localhost:1883}' } },
          remote: { url: 'http://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      }),
    );
    const config = await loadConfig({ cwd: dir, env: {} });
    const env = { SERVER_JS: 'index.js', HOST: '127.0.0.1:3001' };
    expect(resolveServer(config, config.servers.zwave!, env)).toMatchObject({ args: ['index.js'], env: { BROKER: 'mqtt://localhost:1883' } });
    expect(() => resolveServer(config, config.servers.remote!, env)).toThrow(
      `${join(dir, 'toolrun.config.json')}: mcpServers.remote.headers.Authorization: environment variable TOKEN is not set. Export it (export TOKEN=...) or give a default: \${TOKEN:-value}.`,
    );
  });

  it('config errors carry the file, the JSON path and the detail apart from the message', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, JSON.stringify({ mcpServers: { remote: { url: 'http://h/${HOST}' } }, timeoutMs: 'soon' }));
    const loadError = await loadConfig({ cwd: dir, env: {} }).catch((caught: unknown) => caught);
    expect(loadError).toMatchObject({ file, jsonPath: 'timeoutMs', kind: 'config' });
    expect((loadError as ConfigError).message).toBe(`${file}: timeoutMs: ${(loadError as ConfigError).detail}`);
    writeConfig(dir, JSON.stringify({ mcpServers: { remote: { url: 'http://h/${HOST}' } } }));
    const config = await loadConfig({ cwd: dir, env: {} });
    let resolveError: unknown;
    try {
      resolveServer(config, config.servers.remote!, {});
    } catch (caught) {
      resolveError = caught;
    }
    expect(resolveError).toMatchObject({
      file,
      jsonPath: 'mcpServers.remote.url',
      detail: 'environment variable HOST is not set. Export it (export HOST=...) or give a default: ${HOST:-value}.',
      code: 'unset-variable',
    });
    const missing = await loadConfig({ cwd: dir, env: {}, configPath: 'nope.json' }).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ file: join(dir, 'nope.json'), jsonPath: undefined });
  });
});
