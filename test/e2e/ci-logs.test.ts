import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue #31 item 4: GitHub Actions runs a log line as a workflow command when it starts with `::`
// after whitespace (actions/runner ActionCommand.TryParseV2: TrimStart, then StartsWith) or holds
// `##[` anywhere (the legacy TryParse: IndexOf). Nothing a server sends may make such a line, on
// stdout or stderr; toolrun's own annotations (conform under GITHUB_ACTIONS=true) stay.

/** Lines the runner would take as a command. Default-ignorable characters count as nothing: .NET compares with ICU. */
function commandLines(output: string): string[] {
  return output.split(/\r\n|\r|\n/).filter((line) => /^[\s\p{DI}]*:[\p{DI}]*:/u.test(line) || /#[\p{DI}]*#[\p{DI}]*\[/u.test(line));
}

describe('server text never becomes a CI workflow command', () => {
  const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 10 }, mcpServers: { w: fixtureServer('workflow-commands-server.js') } });
  const env = { GITHUB_ACTIONS: 'true' };

  it.each([
    ['an isError result', ['exec', 'w:fail']],
    ['a JSON-RPC error', ['exec', 'w:throw']],
    ['the stderr tail of a server that died mid-call', ['exec', 'w:die']],
    ['--raw of an isError result', ['exec', 'w:fail', '--raw']],
    ['--json of an isError result', ['--json', 'exec', 'w:fail', '--raw']],
    ['descriptions in list and --verbose stderr', ['--verbose', 'list', '--server', 'w']],
  ])('%s', async (_what, args) => {
    const result = await runInProcess(['--config', config, ...args], { env });
    expect(result.stdout + result.stderr).toContain('from the server');
    expect(commandLines(result.stdout)).toEqual([]);
    expect(commandLines(result.stderr)).toEqual([]);
  });

  it("a tool's own result: as it is, except in the GitHub Actions log", async () => {
    const plain = await runInProcess(['--config', config, 'exec', 'w:say']);
    expect(plain.stdout).toContain('\n::error title=forged::from the server\r\n  ::stop-commands::pwned');
    const logged = await runInProcess(['--config', config, 'exec', 'w:say'], { env });
    expect(logged.stdout).toContain('\n\\x3a:error title=forged::from the server\r\n  \\x3a:stop-commands::pwned');
    expect(commandLines(logged.stdout)).toEqual([]);
  });

  it('log and progress messages stay on one line, their line breaks spelled out', async () => {
    const result = await runInProcess(['--config', config, '--verbose', '--log-level', 'debug', 'exec', 'w:chatty'], { env });
    expect(result.exitCode).toBe(0);
    expect(commandLines(result.stderr)).toEqual([]);
    expect(result.stderr).toContain('⚠ [w] warning (db\\n::error title=forged::from the server\\r\\n  ::stop-commands::pwned');
    expect(result.stderr).toContain('progress w:chatty: 1/2 (50%) progress\\n::error title=forged::from the server\\r\\n');
  });

  it('task ids and status lines stay on one line', async () => {
    const dir = tempDir();
    const hostile = writeTempConfig({
      mcpServers: {
        t: fixtureServer('tasks-server.js', {
          env: { TASKS_STATE: join(dir, 'state.json'), STEP_MS: '60', TASK_ID_PREFIX: '::error::id\n::stop-commands::x\n', STATUS_SUFFIX: '\r\n::warning::status ##[error]x' },
        }),
      },
    });
    const followed = await runInProcess(['--config', hostile, 'exec', 't:research', 'topic=tides', 'steps:=2'], { env });
    expect(followed.exitCode).toBe(0);
    expect(commandLines(followed.stderr)).toEqual([]);
    expect(followed.stderr).toMatch(/^… research: task ::error::id\\n::stop-commands::x\\n[0-9a-f-]{36} working — step 1 of 2\\r\\n::warning::status ##\\x5berror\]x$/m);
    const started = await runInProcess(['--config', hostile, 'exec', 't:research', 'topic=tides', '--no-wait'], { env });
    expect(commandLines(started.stdout)).toEqual([]);
    expect(commandLines(started.stderr)).toEqual([]);
  });
});
