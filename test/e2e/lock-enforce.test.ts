import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/run-toolrun.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { fixtureHome } from '../helpers/host-fixtures.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §24 enforcement inside the host and at the shell (issue 50 item 3): `mcp tap --lock` (also as
// `--wrap` writes it into a host's config) and `exec --locked` hide or refuse each rug pull.

const open = new Set<Client>();
afterEach(async () => {
  for (const client of open) await client.close().catch(() => {});
  open.clear();
});

/** A host (the SDK's client) starting `words` as its server's command, with toolrun's stderr kept. */
async function hostOf(words: string[], options: { cwd: string; env?: Record<string, string> }) {
  const marker = newProcessMarker();
  // Elicitation declared, as toolrun's own client does: server-everything lists its elicitation tools only then.
  const client = new Client({ name: 'fake-host', version: '1' }, { capabilities: { elicitation: { form: {}, url: {} } } });
  open.add(client);
  const transport = new StdioClientTransport({ command: words[0]!, args: words.slice(1), cwd: options.cwd, env: { PATH: process.env.PATH!, ...options.env, ...marker.env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }).catch((error: unknown) => error as { code?: number; message?: string });
  const close = async () => {
    await client.close();
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  };
  return { names, call, close, stderr: () => stderr };
}

function rugProject() {
  const dir = tempDir();
  const rugFile = join(dir, 'notes.rug');
  const config = writeTempConfig({ mcpServers: { notes: fixtureServer('rug-server.js', { env: { RUG_FILE: rugFile } }) } });
  return { dir, config, rug: (mode: string) => writeFileSync(rugFile, mode) };
}

/** Each rug pull: the tool it hides, why, and the pinned tools it leaves as they were (the first one is called). */
const CASES = [
  ['description', 'read_notes', "tool 'read_notes' of 'notes' changed since toolrun.lock was written", ['send_note']],
  ['schema', 'read_notes', "tool 'read_notes' of 'notes' changed since toolrun.lock was written", ['send_note']],
  ['added', 'export_notes', "tool 'export_notes' was added to 'notes' since toolrun.lock was written", ['send_note', 'read_notes']],
  ['rename', 'post_note', "tool 'post_note' was added to 'notes' since toolrun.lock was written", ['read_notes']],
] as const;
const ARGS = { send_note: { to: 'a', text: 'b' }, read_notes: { folder: 'inbox' } };

describe('mcp tap --lock', () => {
  it('each rug pull (added, description, schema, rename) is out of tools/list and its call refused with -32602; unchanged tools work', { timeout: 60_000 }, async () => {
    const project = rugProject();
    expect((await runInProcess(['--config', project.config, 'lock'], { cwd: project.dir })).exitCode).toBe(0);
    // `--lock notes`: commander would take notes as the lock file; it is given back as the server.
    const tap = [process.execPath, BIN, '--config', project.config, 'mcp', 'tap', '--lock', 'notes'];
    project.rug('none');
    const clean = await hostOf(tap, { cwd: project.dir });
    expect(clean.names).toEqual(['read_notes', 'send_note']);
    expect(clean.stderr()).toBe('');
    await clean.close();
    for (const [mode, hidden, reason, kept] of CASES) {
      project.rug(mode);
      const host = await hostOf(tap, { cwd: project.dir });
      expect(host.names, mode).toEqual([...kept].sort());
      const refused = (await host.call(hidden, { folder: 'inbox' })) as { code?: number; message?: string };
      expect(refused.code, mode).toBe(-32602);
      expect(refused.message, mode).toContain(`Tool ${hidden} is not served (toolrun mcp tap --lock): ${reason}`);
      expect(await host.call(kept[0], ARGS[kept[0]]), mode).toEqual({ content: [{ type: 'text', text: 'ok' }] });
      expect(host.stderr(), mode).toContain(`⚠ [tap notes] not serving ${hidden}: ${reason}`);
      expect(host.stderr(), mode).toContain('re-pin with: toolrun lock --update notes');
      await host.close();
    }
  });

  it('on server-everything: a tool whose pinned hash differs is hidden and refused, the other tools are served; a server the lock does not pin shows none', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    expect((await runInProcess(['--config', config, 'lock'], { cwd: dir })).exitCode).toBe(0);
    const lockFile = join(dir, 'toolrun.lock');
    const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
    const all = lock.servers.everything.tools.map((tool: { key: string }) => tool.key).sort();
    // The lock approved another echo than the one the server lists now: what a rewritten description looks like.
    lock.servers.everything.tools.find((tool: { key: string }) => tool.key === 'echo').sha256 = '0'.repeat(64);
    writeFileSync(lockFile, JSON.stringify(lock));
    const words = [process.execPath, BIN, 'mcp', 'tap', '--name', 'everything', '--lock', lockFile, '--', process.execPath, SERVER_EVERYTHING, 'stdio'];
    const host = await hostOf(words, { cwd: tempDir() });
    expect(host.names).toEqual(all.filter((name: string) => name !== 'echo'));
    expect(((await host.call('echo', { message: 'hi' })) as { code?: number }).code).toBe(-32602);
    expect(await host.call('get-sum', { a: 1, b: 2 })).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('3') }] });
    await host.close();
    const unpinned = await hostOf([process.execPath, BIN, 'mcp', 'tap', '--name', 'other', '--lock', lockFile, '--', process.execPath, SERVER_EVERYTHING, 'stdio'], { cwd: tempDir() });
    expect(unpinned.names).toEqual([]);
    expect(unpinned.stderr()).toContain(`⚠ [tap other] not serving other's tools: server 'other' is not pinned in ${lockFile}; pin it with: toolrun lock other`);
    await unpinned.close();
  });

  it('a missing lock is exit 2 before the server starts', async () => {
    const project = rugProject();
    const result = await runInProcess(['--config', project.config, 'mcp', 'tap', 'notes', '--lock', 'nope.lock'], { cwd: project.dir });
    expect(result).toMatchObject({ exitCode: 2, stdout: '', stderr: '✖ nope.lock: no such file; pin the servers first with: toolrun lock' });
  });
});

describe('mcp tap --wrap --lock', () => {
  it("writes --lock with the lock's absolute path into the host's entry; the host, running it, sees no changed tool", { timeout: 60_000 }, async () => {
    const f = fixtureHome();
    const rugFile = join(f.root, 'notes.rug');
    const desktop = join(f.home, '.config', 'Claude', 'claude_desktop_config.json');
    f.write(desktop, JSON.stringify({ mcpServers: { notes: fixtureServer('rug-server.js', { env: { RUG_FILE: rugFile } }) } }, null, 2));
    writeFileSync(rugFile, 'none');
    expect((await runInProcess(['--host', 'claude-desktop', 'lock'], { env: f.env, cwd: f.project })).exitCode).toBe(0);
    const missing = await runInProcess(['mcp', 'tap', '--wrap', 'claude-desktop', 'notes', '--lock', 'other.lock'], { env: f.env, cwd: f.project });
    expect(missing).toMatchObject({ exitCode: 2, stderr: '✖ other.lock: no such file; pin the servers first with: toolrun lock' });
    const wrapped = await runInProcess(['mcp', 'tap', '--wrap', 'claude-desktop', 'notes', '--lock'], { env: f.env, cwd: f.project });
    expect(wrapped.exitCode).toBe(0);
    const entry = (parseJsonc(readFileSync(desktop, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).mcpServers.notes!;
    expect(entry.args.slice(1, 7)).toEqual(['mcp', 'tap', '--name', 'notes', '--lock', join(f.project, 'toolrun.lock')]);
    writeFileSync(rugFile, 'description');
    // Started as a host starts it: its own folder, the entry's env.
    const host = await hostOf([entry.command, ...entry.args], { cwd: f.root, env: entry.env });
    expect(host.names).toEqual(['send_note']);
    expect(((await host.call('read_notes', { folder: 'inbox' })) as { message?: string }).message).toContain("tool 'read_notes' of 'notes' changed since");
    await host.close();
    expect((await runInProcess(['mcp', 'tap', '--unwrap', 'claude-desktop', 'notes', '--lock'], { env: f.env, cwd: f.project })).stderr).toBe(
      '✖ --record, --guard, --name and --lock go with --wrap: they become part of the command the host runs',
    );
  });
});

describe('exec --locked', () => {
  it("runs a pinned tool; a changed or added one is exit 2 naming the change and the re-pin; a local tool is not the lock's business", { timeout: 60_000 }, async () => {
    const project = rugProject();
    const run = (args: string[]) => runInProcess(['--config', project.config, ...args], { cwd: project.dir });
    expect((await run(['lock'])).exitCode).toBe(0);
    project.rug('none');
    expect(await run(['exec', '--locked', 'notes:read_notes', 'folder=inbox'])).toMatchObject({ exitCode: 0, stdout: 'ok' });
    project.rug('description');
    expect(await run(['exec', '--locked', 'toolrun.lock', 'read_notes', 'folder=inbox'])).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr:
        "✖ read_notes: Tool 'notes:read_notes' is not run (exec --locked): tool 'read_notes' of 'notes' changed since toolrun.lock was written (its description, schema or annotations: what the model is told); review it, then re-pin with: toolrun lock --update notes",
    });
    expect(await run(['exec', 'notes:read_notes', 'folder=inbox'])).toMatchObject({ exitCode: 0, stdout: 'ok' });
    project.rug('added');
    const added = await run(['--json', 'exec', '--locked', 'notes:export_notes']);
    expect(added.exitCode).toBe(2);
    expect(JSON.parse(added.stdout)).toMatchObject({ success: false, error_kind: 'not_found', error: expect.stringContaining("tool 'export_notes' was added to 'notes' since toolrun.lock") });
    const local = await run(['exec', '--locked', 'math_eval', 'expression=2+2']);
    expect(local.exitCode).toBe(0);
    expect(JSON.parse(local.stdout)).toEqual({ result: 4 });
    expect(await run(['exec', '--locked', 'gone.lock', 'notes:read_notes'])).toMatchObject({
      exitCode: 2,
      stderr: '✖ notes:read_notes: gone.lock: no such file; pin the servers first with: toolrun lock',
    });
  });
});
