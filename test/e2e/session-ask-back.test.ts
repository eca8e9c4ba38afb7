import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runEither, runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue #22 item 5 / SPEC §15: a held server's questions are answered by the command that made the
// call in progress (its flags), relayed by the holder over its socket — not by the holder.
describe('servers that ask back, through a session holder', () => {
  let stopAll: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await stopAll?.();
    stopAll = undefined;
  });

  const setup = (serverEnv: Record<string, string> = {}) => {
    const marker = newProcessMarker();
    const config = writeTempConfig({ mcpServers: { ask: fixtureServer('carry-ask-server.js', { env: serverEnv }) } });
    const env = { XDG_RUNTIME_DIR: tempDir(), ...marker.env };
    // exec spawned (the warm path relays the questions), the rest in this process (run-in-process.ts).
    const run = (args: string[]) => runEither(['--config', config, ...args], { env });
    stopAll = () => runInProcess(['session', 'stop', '--all'], { env });
    return { run, marker };
  };
  const rootOf = (dir: string) => ({ uri: pathToFileURL(dir).href, name: basename(dir) });

  it("answers an elicitation with the command's --elicit accept / --answer, and declines (saying how to answer) without them", async () => {
    const { run, marker } = setup();
    expect((await run(['session', 'start'])).exitCode).toBe(0);
    // The holder advertises elicitation: every command can answer (or decline) one.
    expect(await run(['exec', 'ask:caps'])).toMatchObject({ exitCode: 0, stdout: '{"elicitation":{"form":{},"url":{}}}' });
    const accepted = await run(['--verbose', '--elicit', 'accept', '--answer', 'name=Ada', 'exec', 'ask:ask-name']);
    expect(accepted.stderr).toMatch(/session: ran through the holder \(pid \d+\)/);
    expect(accepted).toMatchObject({ exitCode: 0, stdout: 'elicitation: {"action":"accept","content":{"color":"blue","name":"Ada"}}' });
    const declined = await run(['exec', 'ask:ask-name']);
    expect(declined).toMatchObject({ exitCode: 0, stdout: 'elicitation: {"action":"decline"}' });
    expect(declined.stderr).toContain(
      `⚠ server 'ask' asked for input ("Who are you?"); declined: no terminal and no answers given. Answer with --answer field=value, --answers FILE or --elicit accept|decline|cancel`,
    );
    expect(await run(['--elicit', 'cancel', 'exec', 'ask:ask-name'])).toMatchObject({ exitCode: 0, stdout: 'elicitation: {"action":"cancel"}' });
    await stopAll!();
    expect(await waitForNoProcesses(marker.alive, 5000)).toEqual([]);
  });

  it("offers the holder's --root (also before any command) and relays roots/list to a command that gives its own", async () => {
    const { run } = setup({ ROOTS_ON_START: '1' });
    const holderRoot = tempDir();
    const commandRoot = tempDir();
    expect((await run(['--root', holderRoot, 'session', 'start'])).exitCode).toBe(0);
    expect(JSON.parse((await run(['exec', 'ask:caps'])).stdout)).toEqual({ elicitation: { form: {}, url: {} }, roots: { listChanged: false } });
    // Asked right after the handshake, no command attached: the holder's own roots.
    expect((await run(['exec', 'ask:startup-roots'])).stdout).toBe(`startup roots: ${JSON.stringify({ roots: [rootOf(holderRoot)] })}`);
    expect((await run(['exec', 'ask:ask-roots'])).stdout).toBe(`roots: ${JSON.stringify({ roots: [rootOf(holderRoot)] })}`);
    const relayed = await run(['--verbose', '--root', commandRoot, 'exec', 'ask:ask-roots']);
    expect(relayed.stderr).toMatch(/session: ran through the holder/);
    expect(relayed.stdout).toBe(`roots: ${JSON.stringify({ roots: [rootOf(commandRoot)] })}`);
  });

  it('a command with --root or --sampling-reply the holder did not advertise starts its server itself, saying why', async () => {
    const { run } = setup();
    expect((await run(['session', 'start'])).exitCode).toBe(0);
    const dir = tempDir();
    const roots = await run(['--verbose', '--root', dir, 'exec', 'ask:ask-roots']);
    expect(roots.stdout).toBe(`roots: ${JSON.stringify({ roots: [rootOf(dir)] })}`);
    expect(roots.stderr).toContain('session: the holder does not offer roots (start it with --root DIR); starting servers here');
    const sampled = await run(['--verbose', '--sampling-reply', 'hello', 'exec', 'ask:ask-model']);
    expect(sampled).toMatchObject({ exitCode: 0, stdout: 'sampling: hello' });
    expect(sampled.stderr).toContain('session: the holder does not offer sampling (start it with --sampling-reply TEXT); starting servers here');
  });

  it("answers sampling with the command's responder, else the holder's", async () => {
    const { run, marker } = setup();
    expect((await run(['--sampling-reply', 'from the holder', 'session', 'start'])).exitCode).toBe(0);
    // The holder's flags travel in its environment: a command line is readable by every user (ps).
    const commandLines = marker.alive().map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    expect(commandLines.some((line) => line.includes('session-holder.js'))).toBe(true);
    expect(commandLines.filter((line) => line.includes('from the holder'))).toEqual([]);
    expect(await run(['exec', 'ask:ask-model'])).toMatchObject({ exitCode: 0, stdout: 'sampling: from the holder' });
    const relayed = await run(['--verbose', '--sampling-reply', 'from the command', 'exec', 'ask:ask-model']);
    expect(relayed).toMatchObject({ exitCode: 0, stdout: 'sampling: from the command' });
    expect(relayed.stderr).toMatch(/session: ran through the holder/);
  });

  it('a --root that is not a folder fails session start before a holder starts', async () => {
    const { run } = setup();
    const start = await run(['--root', '/no/such/folder', 'session', 'start']);
    expect(start).toMatchObject({ exitCode: 2, stdout: '' });
    expect(start.stderr).toContain('--root /no/such/folder: no such folder');
    expect(JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders).toEqual([]);
  });
});
