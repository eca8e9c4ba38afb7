import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runClean } from '../helpers/processes.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
type IndexEntries = Record<string, Record<string, unknown>>;
const readIndex = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { servers: IndexEntries };

/** Three servers (a, b: pid-file servers counting their starts; zwave) and a cache folder of their own. */
function setup() {
  const cache = tempDir();
  const [a, b] = [join(tempDir(), 'a'), join(tempDir(), 'b')];
  const config = writeTempConfig({
    mcpServers: { a: fixtureServer('pid-file-server.js', { env: { PID_FILE: a } }), b: fixtureServer('pid-file-server.js', { env: { PID_FILE: b } }), zwave: fixtureServer('zwave-server.js') },
  });
  const run = (args: string[]) => runCleanInProcess(['--config', config, ...args], { env: { XDG_CACHE_HOME: cache } });
  // Spawned, with execa's timeout: a FIFO or a link that made toolrun hang must not hang the test process.
  const runSpawned = (args: string[], options: { timeout?: number } = {}) => runClean(['--config', config, ...args], { env: { XDG_CACHE_HOME: cache }, ...options });
  const starts = () => [lines(a).length, lines(b).length];
  return { cache, folder: join(cache, 'toolrun'), config, run, runSpawned, starts, indexFile: join(cache, 'toolrun', 'tool-index.json') };
}

// Issue #19 item 13: the cache is a hint toolrun checks, never something it trusts blindly.
describe('a cache folder toolrun does not own', () => {
  it.each([
    ['owned by another user', (folder: string) => chownSync(folder, 65534, 65534), /cache folder .* belongs to another user \(uid 65534\); running without it/],
    ['writable by others', (folder: string) => chmodSync(folder, 0o777), /cache folder .* is writable by others \(mode 777\); running without it \(chmod 700 /],
  ])('%s is not used: every server is started, one -v note says why, nothing is written there', async (_name, spoil, note) => {
    if (process.getuid?.() !== 0 && _name.startsWith('owned')) return console.log('[skip] chown to another user needs root');
    const { folder, run, starts, indexFile } = setup();
    expect((await run(['exec', 'list_zwave_devices'])).exitCode).toBe(0);
    expect(starts()).toEqual([1, 1]);
    spoil(folder);
    const before = readFileSync(indexFile, 'utf8');
    const result = await run(['-v', 'exec', 'list_zwave_devices']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Switch One');
    // The index would have started zwave alone.
    expect(starts()).toEqual([2, 2]);
    expect(result.stderr.split('\n').filter((line) => note.test(line))).toHaveLength(1);
    expect(readFileSync(indexFile, 'utf8')).toBe(before);
  });
});

describe('remembered valid configs', () => {
  // The build's digest of the config rules (scripts/build.js), to find the name of a config's entry.
  const schemaDigest = createHash('sha256')
    .update(readFileSync(join(ROOT, 'toolrun.schema.json')))
    .update(readFileSync(join(ROOT, 'src/config/config-validator.generated.js')))
    .update(readFileSync(join(ROOT, 'src/config/check-config.ts')))
    .digest('hex')
    .slice(0, 16);
  const entryName = (text: string) => createHash('sha256').update(schemaDigest).update('\0').update(text).digest('hex').slice(0, 32);

  it.each([
    ['an empty file', ''],
    ['a file of the wrong contents', 'ok'],
  ])('%s planted under an invalid config’s digest does not skip the check: exit 3 naming the problem', async (_name, contents) => {
    const cache = tempDir();
    const config = writeTempConfig({ mcpServers: { s: { command: process.execPath, args: 'abc' } } });
    const folder = join(cache, 'toolrun', 'valid-configs');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, entryName(readFileSync(config, 'utf8'))), contents);
    const result = await runCleanInProcess(['--config', config, 'exec', 'get_current_datetime'], { env: { XDG_CACHE_HOME: cache } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('mcpServers.s.args: must be an array of strings, found string');
  });

  it('a valid config is remembered in an entry only this user’s toolrun could have written, and still runs', async () => {
    const cache = tempDir();
    const config = writeTempConfig({ mcpServers: { zwave: fixtureServer('zwave-server.js') } });
    const env = { XDG_CACHE_HOME: cache };
    expect((await runCleanInProcess(['--config', config, 'exec', 'get_current_datetime'], { env })).exitCode).toBe(0);
    const folder = join(cache, 'toolrun', 'valid-configs');
    const entry = join(folder, entryName(readFileSync(config, 'utf8')));
    expect(readFileSync(entry, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(cache, 'toolrun', 'key')).mode & 0o777).toBe(0o600);
    expect((await runCleanInProcess(['--config', config, 'exec', 'get_current_datetime'], { env })).exitCode).toBe(0);
  });
});

describe('tool-index.json that is not a plain file of the right shape', () => {
  it('a FIFO does not hang toolrun: read as no index, and replaced', async () => {
    const { folder, runSpawned, indexFile } = setup();
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [indexFile]);
    const result = await runSpawned(['exec', 'list_zwave_devices'], { timeout: 15_000 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Switch One');
    expect(lstatSync(indexFile).isFile()).toBe(true);
  });

  it('a link to /dev/zero is not read (nor written through): read as no index, and replaced by a file', async () => {
    const { folder, runSpawned, indexFile } = setup();
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    symlinkSync('/dev/zero', indexFile);
    const result = await runSpawned(['exec', 'list_zwave_devices'], { timeout: 15_000 });
    expect(result.exitCode).toBe(0);
    expect(lstatSync(indexFile).isFile()).toBe(true);
  });

  it('a link to a file elsewhere is not written through', async () => {
    const { folder, run, indexFile } = setup();
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, indexFile);
    // The first temporary name toolrun tries is predictable.
    symlinkSync(victim, join(folder, '.tool-index.json.toolrun.tmp'));
    expect((await run(['exec', 'list_zwave_devices'])).exitCode).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readdirSync(folder).filter((name) => name.includes('tool-index'))).toEqual(['.tool-index.json.toolrun.tmp', 'tool-index.json']);
    expect(lstatSync(indexFile).isFile()).toBe(true);
  });

  it.each([
    ['tools not a list', { tools: 5 }],
    ['tools not strings', { tools: [1, null] }],
    ['no date', { tools: ['whoami'], updated: 7 }],
    ['null', null],
    ['a string', 'x'],
  ])('a corrupt entry (%s) is ignored and rewritten; the command answers as without the index', async (_name, corrupt) => {
    const { run, indexFile } = setup();
    expect((await run(['exec', 'list_zwave_devices'])).exitCode).toBe(0);
    const index = readIndex(indexFile);
    for (const key of Object.keys(index.servers)) index.servers[key] = corrupt as Record<string, unknown>;
    writeFileSync(indexFile, JSON.stringify(index));
    const result = await run(['exec', 'list_zwave_devices']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Switch One');
    expect(result.stderr).not.toContain('internal error');
    const rewritten = Object.values(readIndex(indexFile).servers);
    expect(rewritten).toHaveLength(3);
    for (const entry of rewritten) expect(entry).toMatchObject({ tools: expect.arrayContaining([expect.any(String)]), updated: expect.any(String) });
  });
});

describe('a stale tool index', () => {
  /** A server in a script file of its own whose tools the test changes; each answers with its name. */
  const writeServer = (path: string, name: string, tools: string[]) =>
    writeFileSync(
      path,
      `import { send, serve } from ${JSON.stringify(pathToFileURL(join(FIXTURES, 'servers', 'lib', 'hand-rolled.js')).href)};
serve({ name: '${name}', listTools: () => ({ tools: ${JSON.stringify(tools.map((tool) => ({ name: tool, inputSchema: { type: 'object' } })))} }),
  callTool: (request) => send({ id: request.id, result: { content: [{ type: 'text', text: '${name}' }] } }) });
`,
    );
  const setupScripts = () => {
    const dir = tempDir();
    const [s1, s2] = [join(dir, 's1.mjs'), join(dir, 's2.mjs')];
    writeServer(s1, 's1', ['x']);
    writeServer(s2, 's2', ['y']);
    const config = writeTempConfig({ mcpServers: { s1: { command: process.execPath, args: [s1] }, s2: { command: process.execPath, args: [s2] } } });
    const cache = tempDir();
    const run = (args: string[]) => runCleanInProcess(['--config', config, ...args], { env: { XDG_CACHE_HOME: cache } });
    return { s1, s2, run, indexFile: join(cache, 'toolrun', 'tool-index.json') };
  };

  it('a server that gained the tool since answers as with --no-cache (the later server of two), and the index learns it', async () => {
    const { s2, run } = setupScripts();
    expect((await run(['exec', 'x'])).stdout).toBe('s1');
    writeServer(s2, 's2', ['x', 'y']);
    expect((await run(['exec', 'x'])).stdout).toBe('s2');
    expect((await run(['exec', 'x'])).stdout).toBe('s2');
    expect((await run(['--no-cache', 'exec', 'x'])).stdout).toBe('s2');
  });

  it('a tool that moved from s1 to s2 is found on s2', async () => {
    const { s1, s2, run } = setupScripts();
    expect((await run(['exec', 'x'])).stdout).toBe('s1');
    writeServer(s1, 's1', ['z']);
    writeServer(s2, 's2', ['x', 'y']);
    expect((await run(['exec', 'x'])).stdout).toBe('s2');
    expect((await run(['exec', 'x'])).stdout).toBe('s2');
  });

  it('an index edited to say s2 lacks the tool it has is not believed', async () => {
    const { s2, run, indexFile } = setupScripts();
    writeServer(s2, 's2', ['x', 'y']);
    expect((await run(['exec', 'x'])).stdout).toBe('s2');
    const index = readIndex(indexFile);
    for (const entry of Object.values(index.servers)) entry.tools = (entry.tools as string[]).includes('y') ? ['y'] : entry.tools;
    writeFileSync(indexFile, JSON.stringify(index));
    expect((await run(['exec', 'x'])).stdout).toBe('s2');
  });
});
