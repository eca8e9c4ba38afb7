// How soon `exec` ends a server that ignores stdin EOF (issue #19 item 10): SIGTERM once the server
// has sat idle for 200 ms (src/process/shutdown-steps.ts), not after the whole 1 s grace. The
// shutdown recorder fixture logs, with its own clock, when its stdin closed and when SIGTERM came;
// the median of N execs of its `wait` tool. Prints {"eof_to_sigterm_ms", "grace_ms"}. (A test
// cannot hold this bound on a loaded machine: test/e2e/shutdown-wait.test.ts checks the order.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const n = Number(process.argv[2] ?? 5);
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const recorder = fileURLToPath(new URL('../fixtures/servers/shutdown-recorder-server.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolrun-eof-bench-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));

const waits = [];
for (let i = 0; i < n; i++) {
  const log = join(folder, `shutdown-${i}.log`);
  const config = join(folder, `config-${i}.json`);
  const env = { SHUTDOWN_LOG: log, LOG_TIMES: '1', IGNORE_STDIN_EOF: '1' };
  writeFileSync(config, JSON.stringify({ mcpServers: { rec: { command: process.execPath, args: [recorder], env } } }));
  const child = spawn(process.execPath, [bin, '--no-session', '--config', config, 'exec', 'rec:wait', 'ms=0'], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`exec exited ${code}`);
  const events = Object.fromEntries(
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .map(([event, time]) => [event, Number(time)]),
  );
  if (events['stdin-eof'] === undefined || events.SIGTERM === undefined) throw new Error(`unexpected shutdown log: ${JSON.stringify(events)}`);
  waits.push(events.SIGTERM - events['stdin-eof']);
}
waits.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ eof_to_sigterm_ms: waits[Math.floor(waits.length / 2)], grace_ms: 1000 })}\n`);
