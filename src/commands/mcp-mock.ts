import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { UsageError } from '../errors.js';
import { httpBearerToken, parseListen } from '../cli-support/http-listen-options.js';

interface MockOptions {
  http?: string;
  match: string;
  fault?: string[];
  seed?: string;
  tokenEnv?: string;
}

/** `toolrun mcp mock SOURCE` (SPEC §20): a recording, a snapshot or a config's mock tools, served as a real MCP server. */
export function registerMcpMockCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('mock')
    .description("serve a recording, a snapshot or a config's mock tools as an MCP server (stdio or HTTP) that answers the same way every run, or misbehaves on purpose (--fault)")
    .argument('<source>', 'a recording (tap --record, check-stdout --save), a snapshot (mcp snapshot) or a tools/list result ({"tools": [...]}), or a toolrun config with mock tools')
    .option('--http <[host:]port>', 'serve Streamable HTTP on this port (127.0.0.1 unless a host is given; 0 picks a free port) instead of stdio')
    .option('--match <mode>', 'how a recording answers: args (the answer recorded for the same method and parameters) or ordered (the Nth answer of the method)', 'args')
    .option(
      '--fault <spec...>',
      'misbehave: latency=MS, error-rate=P, is-error-rate=P, hang[=N], exit-mid-call[=N], pollute-stdout[=P], slow-init=MS, list-changed-storm[=N]; over HTTP also 401, session-expired[=N]',
    )
    .option('--seed <n>', 'seed of the faults drawn by rate: the same seed and requests give the same faults (default: a random seed, printed)')
    .option('--token-env <var>', 'over HTTP: require "Authorization: Bearer $VAR" on every request (401 without it); needed to listen beyond loopback')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp check-stdout my-server --call search query=mcp --save my-server.rec
  $ toolrun mcp replay my-server.rec -- toolrun mcp mock my-server.rec   # the mock answers as recorded
  $ toolrun mcp snapshot my-server > api.json && toolrun mcp conform -- toolrun mcp mock api.json
  $ toolrun mcp mock api.json --http 8931 --fault latency=200 --fault error-rate=0.1 --seed 7
  $ MOCK_TOKEN=s3cret toolrun mcp mock api.json --http 0.0.0.0:8931 --token-env MOCK_TOKEN

A recording answers each request with what the server answered then (its ids aside); a request it
never saw is a JSON-RPC error naming it, never a hang. A snapshot answers its lists as listed, calls
with results valid against the tool's outputSchema (else a text naming the call), reads and prompts
with text that says it is a mock's. In a host's config: "command": "toolrun", "args": ["mcp", "mock", "api.json"].
Over HTTP, as serve: at most 1,000 sessions (the least recently used idle one makes room), a session
whose client never sends notifications/initialized ends after 5 s, an idle one after 30 minutes.
Exit codes: 0 stdin closed · 1 exit-mid-call · 2 bad usage or source · 130 Ctrl-C (143 SIGTERM)`,
    )
    .action((source: string, options: MockOptions) => run((cli) => mock(cli, source, options)));
}

async function mock(cli: CliContext, source: string, options: MockOptions): Promise<number> {
  const [{ parseFaults, seededRandom }, { readMockSource }, { createResponder }] = await Promise.all([
    import('../mock/faults.js'),
    import('../mock/read-mock-source.js'),
    import('../mock/mock-answers.js'),
  ]);
  if (options.match !== 'args' && options.match !== 'ordered') throw new UsageError(`--match ${options.match}: args or ordered`);
  const faults = parseFaults(options.fault ?? []);
  const listen = options.http === undefined ? undefined : parseListen(options.http);
  const token = await httpBearerToken(cli, options, listen);
  if (listen && (faults.polluteRate !== undefined || faults.listChangedStorm !== undefined)) throw new UsageError('pollute-stdout and list-changed-storm are stdio faults: drop --http, or the fault');
  if (!listen && (faults.unauthorized || faults.sessionExpiresAfter !== undefined)) throw new UsageError('401 and session-expired are HTTP faults: add --http PORT');
  if (options.seed !== undefined && !/^\d{1,10}$/.test(options.seed)) throw new UsageError(`--seed ${options.seed}: a whole number`);
  const seed = options.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(options.seed);
  const book = readMockSource(resolve(cli.cwd, source), source);
  const newResponder = () => createResponder(book, options.match as 'args' | 'ordered');
  const random = seededRandom(seed);
  const drawn = faults.errorRate !== undefined || faults.isErrorRate !== undefined || (faults.polluteRate !== undefined && faults.polluteRate < 1);
  if (drawn && options.seed === undefined) cli.terminal.info(`toolrun mock: faults drawn with seed ${seed} (--seed ${seed} repeats them)`);
  if (!listen) {
    const { serveMockOverStdio } = await import('../mock/mock-stdio.js');
    return serveMockOverStdio(newResponder(), faults, random, { stdin: process.stdin, stdout: cli.terminal.stdout });
  }
  const { serveMockOverHttp } = await import('../mock/mock-http.js');
  const { close, url } = await serveMockOverHttp(newResponder, faults, random, { ...listen, token, log: (message) => cli.terminal.warn(message) }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--http ${options.http}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EACCES' ? 'not allowed to listen there' : error.message}`);
  });
  cli.onExit(() => close());
  cli.terminal.info(`toolrun mock: serving ${book.label} on ${url}`);
  await new Promise<void>((done) => cli.signal.addEventListener('abort', () => done(), { once: true }));
  return 0;
}
