import { execa } from 'execa';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { BIN } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const HOW_TO = 'Answer with --answer field=value, --answers FILE or --elicit accept|decline|cancel';

describe('elicitation (SPEC §15, issue #22 items 1 and 7)', () => {
  let config: string;
  let dir: string;
  const run = (args: string[]) => runCleanInProcess(['--no-session', '--config', config, ...args]);
  const answersFile = (name: string, rounds: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(rounds));
    return path;
  };
  beforeAll(() => {
    dir = tempDir();
    config = writeTempConfig({
      mcpServers: {
        e: fixtureServer('elicit-server.js'),
        modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }),
        everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
      },
    });
  });

  it('without a terminal or answers: declines, and says on stderr how to answer', async () => {
    const result = await run(['exec', 'e:signup']);
    expect(result).toMatchObject({ exitCode: 0, stdout: '{"action":"decline"}' });
    expect(result.stderr).toContain(`server 'e' asked for input ("Sign up for the newsletter"); declined: no terminal and no answers given. ${HOW_TO}`);
  });

  it('--answer values are typed by the requested schema (an integer field gets a number, a multi-select a list), defaults fill the rest', async () => {
    const result = await run(['exec', 'e:signup', '--answer', 'name=Ada', '--answer', 'age=36', '--answer', 'topics=news,tips', '--answer', 'subscribe=yes']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ action: 'accept', content: { name: 'Ada', age: 36, score: 9.5, subscribe: true, plan: 'free', topics: ['news', 'tips'] } });
  });

  it('a wrong-type --answer is exit 2, one line naming the field and the type it wants', async () => {
    const result = await run(['exec', 'e:signup', '--answer', 'name=Ada', '--answer', 'age=old']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `--answer does not fit what server 'e' asked for ("Sign up for the newsletter"): 'age' must be integer; the fields asked for: name* (string), age* (integer), score (number)`,
    );
  });

  it('--elicit accept sends the schema defaults; a required field without one is named', async () => {
    const missing = await run(['--elicit', 'accept', 'exec', 'e:signup']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("--elicit accept does not fit what server 'e' asked for");
    expect(missing.stderr).toContain("missing 'name'; missing 'age'");
    const nasty = await run(['--elicit', 'accept', 'exec', 'e:nasty']);
    expect(nasty).toMatchObject({ exitCode: 0, stdout: '{"action":"accept","content":{"ok":true}}' });
  });

  it('--elicit cancel and --elicit decline answer that way', async () => {
    expect(await run(['--elicit', 'cancel', 'exec', 'e:signup'])).toMatchObject({ exitCode: 0, stdout: '{"action":"cancel"}' });
    expect(await run(['--elicit', 'decline', 'exec', 'e:signup'])).toMatchObject({ exitCode: 0, stdout: '{"action":"decline"}' });
  });

  it('--answers FILE answers the rounds in order (a content object is an accept)', async () => {
    const file = answersFile('rounds.json', [{ name: 'Ada' }, { action: 'accept', content: { confirm: true } }]);
    const result = await run(['exec', 'e:two_rounds', '--answers', file]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { action: 'accept', content: { name: 'Ada' } },
      { action: 'accept', content: { confirm: true } },
    ]);
    const declined = await run(['exec', 'e:two_rounds', '--answers', answersFile('decline.json', [{ action: 'decline' }, { action: 'cancel' }])]);
    expect(JSON.parse(declined.stdout)).toEqual([{ action: 'decline' }, { action: 'cancel' }]);
  });

  it('an answers file that does not fit the schema is exit 2 in one line, the server ended', async () => {
    const file = answersFile('wrong.json', [{ name: 'Ada' }, { confirm: 'yes' }]);
    const result = await run(['exec', 'e:two_rounds', '--answers', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      `✖ two_rounds: --answers ${file} round 2 does not fit what server 'e' asked for ("Really go on?"): 'confirm' must be boolean; the fields asked for: confirm* (boolean)`,
    ]);
  });

  it('an answers file that is not JSON, or not rounds, is exit 2 before any server starts', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"name": 1');
    const notJson = await run(['exec', 'e:two_rounds', '--answers', broken]);
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain(`--answers ${broken} is not JSON`);
    const badAction = await run(['exec', 'e:two_rounds', '--answers', answersFile('action.json', [{ action: 'maybe' }])]);
    expect(badAction.exitCode).toBe(2);
    expect(badAction.stderr).toContain('round 1: action must be accept, decline or cancel, found "maybe"');
  });

  it('a server that elicits in a loop gets cancel after 20 rounds, and the call ends with exit 1, nothing left running', async () => {
    const log = join(dir, 'loop.log');
    const loopConfig = writeTempConfig({ mcpServers: { e: fixtureServer('elicit-server.js', { env: { CALLS_LOG: log } }) } });
    const result = await runCleanInProcess(['--no-session', '--config', loopConfig, '--elicit', 'decline', 'exec', 'e:loop']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("✖ loop: server 'e' asked for input more than 20 times in one command (an elicitation loop?); answered cancel and stopped");
    const { readFileSync } = await import('node:fs');
    // 20 answered, the 21st cancelled; one more may cross the cancel on the wire before the server is ended.
    const asked = readFileSync(log, 'utf8').trim().split('\n').length;
    expect(asked).toBeGreaterThanOrEqual(21);
    expect(asked).toBeLessThanOrEqual(23);
  });

  it('URL mode: the URL is printed on stderr; declined without a terminal, accepted with --elicit accept', async () => {
    const declined = await run(['exec', 'e:open_link']);
    expect(declined).toMatchObject({ exitCode: 0, stdout: '{"action":"decline"}' });
    expect(declined.stderr).toContain(`server 'e' asks you to open a URL: "Connect your account"\n  https://example.com/connect?state=abc`);
    expect(await run(['--elicit', 'accept', 'exec', 'e:open_link'])).toMatchObject({ exitCode: 0, stdout: '{"action":"accept"}' });
  });

  // Issue #31 item 10: the URL as the URL parser spells it (controls and the bidi override percent-encoded), a 20,000-character one cut.
  it('URL mode: a URL with controls is shown percent-encoded, one too long is cut and said so', async () => {
    const hostile = await run(['exec', 'e:hostile_link']);
    expect(hostile.stderr).toContain(`asks you to open a URL: "Open it"\n  https://example.com/a%20b%E2%80%AE|x^%%1B]0;t%07?q=1&r=2\n`);
    expect(hostile.stderr).not.toMatch(/[\x1b\x07\u202e]/);
    const long = await run(['exec', 'e:long_link']);
    expect(long.stdout).toBe('{"action":"decline"}');
    expect(long.stderr).toContain(`  https://example.com/?${'a'.repeat(100)}`);
    expect(long.stderr).toContain('… (a URL of 20,021 characters; toolrun shows and opens URLs up to 8,192)');
    expect(long.stderr).not.toContain('a'.repeat(8192));
  });

  // util-linux `script` gives toolrun a terminal: the person is asked, and $BROWSER is the opener.
  it.skipIf(!existsSync('/usr/bin/script'))('on a terminal: the opener gets the URL as shown (percent-encoded); one too long is not opened', async () => {
    const opened = join(dir, 'opened.log');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${opened}'\n`);
    chmodSync(browser, 0o755);
    const onTerminal = (tool: string) =>
      execa('script', ['-qec', `'${process.execPath}' '${BIN}' --no-session --config '${config}' exec e:${tool}`, '/dev/null'], {
        reject: false,
        timeout: 30_000,
        input: '\n',
        env: { ...process.env, BROWSER: browser, NO_COLOR: '1' },
      });
    const hostile = await onTerminal('hostile_link');
    expect(hostile.stdout).toContain('{"action":"accept"}');
    expect(readFileSync(opened, 'utf8')).toBe('https://example.com/a%20b%E2%80%AE|x^%%1B]0;t%07?q=1&r=2\n');
    const long = await onTerminal('long_link');
    expect(long.stdout).toContain('{"action":"decline"}');
    expect(readFileSync(opened, 'utf8').split('\n')).toHaveLength(2);
  });

  it('a -32042 URL elicitation error shows the URL and says what to do', async () => {
    const result = await run(['exec', 'e:needs_url']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `MCP server 'e' needs you to open a URL before 'needs_url' can run: "Authorize access to your files": https://example.com/authorize?x=1; open it, then run the command again`,
    );
  });

  it('server text with terminal escape codes is shown escaped', async () => {
    const result = await run(['exec', 'e:nasty']);
    expect(result.stderr).toContain('("Hi\\u001b]0;pwned\\u0007\\u001b[2J there\\u009b")');
    expect(result.stderr).not.toMatch(/[\x1b\x07\x9b]/);
  });

  it('2026-07-28: an input_required round is answered by the same handler, requestState echoed', async () => {
    const result = await run(['exec', 'modern:deploy', 'env=prod', '--answer', 'ok=true']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'deployed to prod: {"replicas":2,"ok":true}, requestState "state:prod:42"' });
    const declined = await run(['exec', 'modern:deploy']);
    expect(declined).toMatchObject({ exitCode: 0, stdout: 'not deployed: {"action":"decline"}' });
    expect(declined.stderr).toContain(`server 'modern' asked for input ("Deploy to staging?"); declined`);
    const wrong = await run(['exec', 'modern:deploy', '--answer', 'ok=maybe']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("'ok' must be boolean");
  });

  it("2026-07-28: a task's input_required elicitation is answered the same way, through tasks/update", async () => {
    const tasksConfig = writeTempConfig({ mcpServers: { t: fixtureServer('tasks-server.js', { env: { ERA: 'modern', INPUT_TOOL: '1', TASKS_STATE: join(dir, 'tasks.json') } }) } });
    const result = await runCleanInProcess(['--no-session', '--config', tasksConfig, 'exec', 't:confirm_job', '--answer', 'go=yes']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'confirmed: {"action":"accept","content":{"go":true}}' });
    const wrong = await runCleanInProcess(['--no-session', '--config', tasksConfig, 'exec', 't:confirm_job', '--answer', 'go=perhaps']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("'go' must be boolean");
  });

  it("server-everything's trigger-elicitation-request: accepted with --answer and the schema's defaults", async () => {
    const result = await runInProcess(['--no-session', '--config', config, '--elicit', 'accept', 'exec', 'everything:trigger-elicitation-request', '--answer', 'name=Ada', '--answer', 'integer=7']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('✅ User provided the requested information!');
    expect(result.stdout).toContain('- Name: Ada');
    expect(result.stdout).toContain('- Favorite Integer: 7');
    // Typed by the schema: the integer field got a number, not the string "7".
    expect(result.stdout).toContain('"integer": 7,');
  });
});
