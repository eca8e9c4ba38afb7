// Per-call time of everything:echo through a running session holder (SPEC §12, §17), in two ways:
//   node bench/shell-calls.mjs shell CONFIG N  -> N calls in one `toolrun shell` (stdin piped): {"stats":{"p50":ms}}
//   node bench/shell-calls.mjs exec CONFIG N   -> N warm `toolrun exec`, each minus a bare `node -e 0`: {"p50":ms}
// The shell's startup (and its first call) is left out: the time between one result line and the next
// is one call. An exec's own node startup is left out by subtracting the median `node -e 0`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [mode, config, count] = process.argv.slice(2);
const n = Number(count);
const bin = fileURLToPath(new URL('../bin/toolrun.js', import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

function run(args) {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(now() - started) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

if (mode === 'shell') {
  const child = spawn(process.execPath, [bin, '--config', config, 'shell', 'everything'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const arrivals = [];
  let buffered = '';
  let sent = 0;
  const send = () => child.stdin.write('echo message=hi\n');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      buffered = buffered.slice(newline + 1);
      arrivals.push(now());
      // One line at a time, as a person types: each call starts when the last result is out.
      if (sent < n + 1) {
        sent++;
        send();
      } else child.stdin.end();
    }
  });
  sent = 1;
  send();
  await new Promise((resolve) => child.on('exit', resolve));
  const perCall = arrivals.slice(1).map((time, index) => time - arrivals[index]);
  process.stdout.write(`${JSON.stringify({ stats: { p50: median(perCall), calls: perCall.length } })}\n`);
} else {
  const perCall = [];
  for (let i = 0; i < n; i++) {
    const exec = await run([bin, '--config', config, 'exec', 'everything:echo', 'message=hi']);
    const bare = await run(['-e', '0']);
    perCall.push(exec - bare);
  }
  process.stdout.write(`${JSON.stringify({ p50: median(perCall) })}\n`);
}
