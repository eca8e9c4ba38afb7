import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { BIN, FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { withoutSlowToolLine } from '../helpers/slow-tool-line.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const script = (name: string) => join(FIXTURES, 'sampling', name);
const command = (name: string, ...args: string[]) => [process.execPath, script(name), ...args].join(' ');

/** A process that exists and is not a zombie (an orphan nobody reaps stays one here). */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The fixture's `sample` tool answers with one line per request: the result's JSON, or "error CODE: MESSAGE". */
const replies = (stdout: string) => stdout.split('\n').map((line) => (line.startsWith('{') ? JSON.parse(line) : line));

describe('sampling (SPEC §15, issue #22 point 2)', () => {
  let config: string;
  let dir: string;
  beforeAll(() => {
    config = writeTempConfig({
      mcpServers: {
        s: fixtureServer('sampling-server.js'),
        v2: fixtureServer('v2-sampling-server.js', { env: { LEGACY: 'reject' } }),
        everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
        pid: fixtureServer('pid-file-server.js', { env: { PID_FILE: join(dirname(writeTempConfig({})), 'pids') } }),
      },
    });
    dir = tempDir();
  });
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('is not advertised without a responder: the server sees no sampling or roots capability', async () => {
    const capabilities = await runCleanInProcess(['--config', config, 'exec', 's:capabilities']);
    expect(capabilities.exitCode).toBe(0);
    expect(Object.keys(JSON.parse(capabilities.stdout))).toEqual(['elicitation']);
    const sample = await runCleanInProcess(['--config', config, 'exec', 's:sample']);
    expect(sample).toMatchObject({ exitCode: 0, stdout: 'sampling not advertised' });
  });

  it('--sampling-reply answers every request with the text', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-reply', 'hello there', 'exec', 's:sample', 'times=2']);
    expect(result.exitCode).toBe(0);
    expect(replies(result.stdout)).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'hello there' }, model: 'toolrun --sampling-reply', stopReason: 'endTurn' },
      { role: 'assistant', content: { type: 'text', text: 'hello there' }, model: 'toolrun --sampling-reply', stopReason: 'endTurn' },
    ]);
  });

  it('--sampling FILE answers in order; past its last reply the server gets an error and stderr says so', async () => {
    const path = file('replies.json', ['first', { role: 'assistant', content: { type: 'text', text: 'second' }, model: 'm2', stopReason: 'maxTokens' }]);
    const result = await runCleanInProcess(['--config', config, '--sampling', path, 'exec', 's:sample', 'times=3']);
    expect(result.exitCode).toBe(0);
    expect(replies(result.stdout)).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'first' }, model: 'toolrun --sampling', stopReason: 'endTurn' },
      { role: 'assistant', content: { type: 'text', text: 'second' }, model: 'm2', stopReason: 'maxTokens' },
      `error -1: no sampling reply left: ${path} holds 2`,
    ]);
    expect(result.stderr).toContain(`⚠ server 's' asked for sampling request 3 but --sampling ${path} holds 2 replies: answered with an error (add replies to the file)\n`);
  });

  it.each([
    ['not JSON', '["a", ', /--sampling .*bad\.json: not JSON \(.+\)$/],
    ['not an array', { reply: 'a' }, /--sampling .*bad\.json: must be a JSON array of replies \(each a text or a \{role, content\} result\), found an object$/],
    ['a reply of the wrong type', ['a', 3], /--sampling .*bad\.json: reply 2 must be a text or a \{role, content\} result, found a number$/],
    ['a result without content', [{ role: 'assistant' }], /--sampling .*bad\.json: reply 1: needs "content" \(an object such as \{"type": "text", "text": "…"\}\)$/],
  ])('a malformed --sampling file (%s) is exit 2 in one line, before any server starts', async (_name, content, message) => {
    const path = file('bad.json', content);
    const pids = join(dirname(config), 'pids');
    const result = await runCleanInProcess(['--config', config, '--sampling', path, 'exec', 'pid:whoami']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(existsSync(pids)).toBe(false);
  });

  it('a missing --sampling file is exit 2 naming it', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling', join(dir, 'nope.json'), 'exec', 's:sample']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(/--sampling .*nope\.json: cannot read it \(no such file\)$/);
  });

  it('two responders at once is a usage error', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-reply', 'a', '--sampling-command', 'cat', 'exec', 's:sample']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(/--sampling-reply, --sampling and --sampling-command each answer every sampling request: give one$/);
  });

  it('--sampling-command gets the request on stdin; plain text on stdout is a text reply (words split as a shell would, no shell)', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-command', `${command('reply-text.js')} "two words" it\\'s`, 'exec', 's:sample', 'prompt=Tell me']);
    expect(result.exitCode).toBe(0);
    expect(replies(result.stdout)).toEqual([
      { role: 'assistant', content: { type: 'text', text: "model says: Tell me (1) [max 50] two words|it's" }, model: 'toolrun --sampling-command', stopReason: 'endTurn' },
    ]);
  });

  it('--sampling-command printing a JSON result is taken whole', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-command', command('reply-json.js'), 'exec', 's:sample']);
    expect(replies(result.stdout)).toEqual([{ role: 'assistant', content: { type: 'text', text: 'from json' }, model: 'fake-model-1', stopReason: 'maxTokens' }]);
  });

  it('--sampling-command printing a JSON object that is not a result: an error reply and a warning', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-command', command('reply-json.js'), 'exec', 's:sample'], { env: { BAD: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^error -32603: toolrun's --sampling-command failed: it printed a JSON object that is not a sampling result: "role" must be "assistant" or "user"$/);
    expect(result.stderr).toContain(
      `⚠ server 's': --sampling-command '${command('reply-json.js')}' printed a JSON object that is not a sampling result: "role" must be "assistant" or "user"; the server got an error\n`,
    );
  });

  it('--sampling-command that exits non-zero: an error reply, and a warning with its last stderr line', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-command', command('fail.js'), 'exec', 's:sample']);
    expect(result.exitCode).toBe(0);
    // The server gets the exit code only: the command's stderr may quote an API key (SPEC §8); the person sees it, masked.
    expect(result.stdout).toBe("error -32603: toolrun's --sampling-command failed: it exited with code 3");
    expect(result.stderr).toContain(`⚠ server 's': --sampling-command '${command('fail.js')}' exited with code 3: boom: the model is down; the server got an error\n`);
  });

  it('--sampling-command that prints without end is cut at 1 MB and ended', async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-command', command('flood.js'), 'exec', 's:sample']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("error -32603: toolrun's --sampling-command failed: it printed more than 1 MB (ended it)");
    expect(result.stderr).toContain(`⚠ server 's': --sampling-command '${command('flood.js')}' printed more than 1 MB (ended it); the server got an error\n`);
  });

  it('--sampling-command that hangs is bounded by the call timeout and ended with what it started', async () => {
    const result = await runCleanInProcess(['--config', config, '--timeout', '1500', '--sampling-command', command('hang.js'), 'exec', 's:sample']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/timed out after 1500 ms/);
  });

  // Issue #31 item 9: a server that asks a hundred times at once gets a hundred replies, from at most
  // four commands at a time (the rest wait their turn), and nothing a command started outlives toolrun.
  it('--sampling-command answers 100 requests made at once: every reply delivered, at most 4 commands at a time', async () => {
    const sampling = tempDir();
    const result = await runCleanInProcess(['--config', config, '--sampling-command', `sh ${script('count-running.sh')}`, 'exec', 's:sample', 'times:=100', 'parallel:=true'], {
      env: { SAMPLING_DIR: sampling },
    });
    expect(result.exitCode).toBe(0);
    const texts = replies(result.stdout).map((reply) => (typeof reply === 'string' ? reply : reply.content.text));
    expect(texts).toEqual([...Array(100)].map((_, index) => `reply to Say hi (${index + 1})`));
    const counts = readFileSync(join(sampling, 'counts'), 'utf8').trim().split('\n').map(Number);
    expect(counts).toHaveLength(100);
    expect(Math.max(...counts)).toBeLessThanOrEqual(4);
  }, 60_000);

  it.each(['0', '1'])('--sampling-command whose helper calls setsid (bare environment: %s): the helper is ended too', async (clean) => {
    const pids = join(tempDir(), 'helpers');
    writeFileSync(pids, '');
    const result = await runInProcess(['--config', config, '--sampling-command', command('setsid-helper.js'), 'exec', 's:sample', 'times:=2'], {
      env: { HELPER_PID_FILE: pids, CLEAN_ENV: clean },
    });
    expect(result.exitCode).toBe(0);
    expect(replies(result.stdout).map((reply) => reply.content.text)).toEqual(['reply with a helper', 'reply with a helper']);
    const helpers = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(helpers).toHaveLength(2);
    const running = () => helpers.filter((pid) => isRunning(pid));
    const left = await waitForNoProcesses(running);
    // What toolrun failed to end is not left to run on after the test.
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  });

  it("server-everything's trigger-sampling-request is answered by a command", async () => {
    const result = await runCleanInProcess(['--config', config, '--sampling-command', command('reply-text.js'), 'exec', 'everything:trigger-sampling-request', 'prompt=ping']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"text": "model says: Resource trigger-sampling-request context: ping [max 100] "');
  });

  // util-linux `script` gives toolrun a real terminal; what is piped into it is what the person types.
  it.skipIf(!existsSync('/usr/bin/script')).each([
    ['typed answer\n\nnot read\n', '{"model":"toolrun (typed at the terminal)","stopReason":"endTurn","role":"assistant","content":{"type":"text","text":"typed answer"}}'],
    ['\n', 'error -1: the sampling request was declined at the terminal'],
  ])('on a terminal without a flag, the person types the reply (%j)', async (typed, reply) => {
    const marker = newProcessMarker();
    const result = await execa('script', ['-qec', `${process.execPath} ${BIN} --config ${config} exec s:sample`, '/dev/null'], {
      cwd: ROOT,
      reject: false,
      timeout: 30_000,
      input: typed,
      env: { ...process.env, ...marker.env, NO_COLOR: '1' },
    });
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
    expect(result.exitCode).toBe(0);
    // The terminal shows stderr too: the slow-tool warning of a call that waited for typing is not what this checks.
    const lines = withoutSlowToolLine(result.stdout.replace(/\r/g, '')).split('\n');
    const shown = lines.indexOf("server 's' asks for a model reply (sampling, at most 50 tokens):");
    expect(lines.slice(shown, shown + 5)).toEqual([
      "server 's' asks for a model reply (sampling, at most 50 tokens):",
      '  system: You are a test.',
      '  user: Say hi (1)',
      'Type the reply, then an empty line (an empty reply declines):',
      reply,
    ]);
  });

  it('2026-07-28: an input_required sampling request is answered from --sampling FILE', async () => {
    const path = file('v2.json', ['from the file']);
    const result = await runCleanInProcess(['--config', config, '--sampling', path, 'exec', 'v2:ask_model']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ role: 'assistant', content: { type: 'text', text: 'from the file' }, model: 'toolrun --sampling', stopReason: 'endTurn' });
  });
});

describe('roots (SPEC §15, issue #22 point 2)', () => {
  it('--root and the config’s roots are advertised and answered as file:// URIs (config first, relative to its folder)', async () => {
    const dir = tempDir();
    for (const name of ['data', 'docs', 'extra']) mkdirSync(join(dir, name));
    const config = join(dir, 'toolrun.config.json');
    writeFileSync(
      config,
      JSON.stringify({ roots: ['data', join(dir, 'docs')], mcpServers: { s: fixtureServer('sampling-server.js'), v2: fixtureServer('v2-sampling-server.js', { env: { LEGACY: 'reject' } }) } }),
    );
    const uri = (name: string) => pathToFileURL(join(dir, name)).href;
    const expected = [
      { uri: uri('data'), name: 'data' },
      { uri: uri('docs'), name: 'docs' },
      { uri: uri('extra'), name: 'extra' },
    ];
    const legacy = await runCleanInProcess(['--config', config, '--root', join(dir, 'extra'), 'exec', 's:roots']);
    expect(legacy.exitCode).toBe(0);
    expect(JSON.parse(legacy.stdout)).toEqual(expected);
    const modern = await runCleanInProcess(['--config', config, '--root', join(dir, 'extra'), 'exec', 'v2:list_roots']);
    expect(JSON.parse(modern.stdout)).toEqual(expected);
    const capabilities = await runCleanInProcess(['--config', config, 'exec', 's:capabilities']);
    expect(JSON.parse(capabilities.stdout).roots).toEqual({ listChanged: false });
  });

  it("server-everything's get-roots-list sees the config's roots", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'project'));
    const config = join(dir, 'toolrun.config.json');
    writeFileSync(config, JSON.stringify({ roots: ['project'], mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } }));
    const result = await runCleanInProcess(['--config', config, 'exec', 'everything:get-roots-list']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`URI: ${pathToFileURL(join(dir, 'project')).href}`);
  });

  it('a config root that does not exist is a config error (exit 3) naming it', async () => {
    const dir = tempDir();
    const config = join(dir, 'toolrun.config.json');
    writeFileSync(config, JSON.stringify({ roots: ['gone'], mcpServers: { s: fixtureServer('sampling-server.js') } }));
    const result = await runCleanInProcess(['--config', config, 'exec', 's:roots']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr.trim()).toMatch(new RegExp(`^✖ (s:roots: )?${config}: roots\\[0\\]: no such folder: ${join(dir, 'gone')}$`));
  });

  it('roots that are not an array of strings are a config error (exit 3)', async () => {
    const config = writeTempConfig({ roots: 'data', mcpServers: { s: fixtureServer('sampling-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'exec', 's:roots']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/roots: must be an array of folder paths/);
  });

  it('a --root that does not exist, or is a file, is exit 2 saying which', async () => {
    const config = writeTempConfig({ mcpServers: { s: fixtureServer('sampling-server.js') } });
    const result = await runCleanInProcess(['--config', config, '--root', '/nonexistent/folder', 'exec', 's:roots']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('✖ s:roots: --root /nonexistent/folder: no such folder: /nonexistent/folder');
    const file = await runCleanInProcess(['--config', config, '--root', config, 'exec', 's:roots']);
    expect(file.exitCode).toBe(2);
    expect(file.stderr.trim()).toBe(`✖ s:roots: --root ${config}: ${config} is a file, not a folder`);
  });
});

describe('sampling and roots with a warm session holder', () => {
  it('a responder or a root starts the servers here: the holder’s were started without them', async () => {
    const config = writeTempConfig({ mcpServers: { s: fixtureServer('sampling-server.js') } });
    const env = { XDG_RUNTIME_DIR: tempDir() };
    expect((await runInProcess(['--config', config, 'session', 'start'], { env })).exitCode).toBe(0);
    try {
      const sample = await runInProcess(['--config', config, '--sampling-reply', 'warm', 'exec', 's:sample'], { env });
      expect(JSON.parse(sample.stdout).content).toEqual({ type: 'text', text: 'warm' });
      const roots = await runInProcess(['--config', config, '--root', dirname(config), 'exec', 's:roots'], { env });
      expect(JSON.parse(roots.stdout)).toEqual([{ uri: pathToFileURL(dirname(config)).href, name: basename(dirname(config)) }]);
    } finally {
      await runInProcess(['--config', config, 'session', 'stop'], { env });
    }
  });
});
