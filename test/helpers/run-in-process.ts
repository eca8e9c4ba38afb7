import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from './processes.js';
import { ROOT, runToolrun, testCacheHome } from './run-toolrun.js';

/**
 * Runs toolrun in this process, through the library's runCli (dist/lib/index.js, the package's own
 * entry, built by `npm test` before the tests), for a test about what a command does rather than
 * about toolrun's own process (its exit, signals, stdin, its node): each call then costs the command,
 * not a node start and a load of the CLI's modules. The result has the shape runToolrun's has
 * (exitCode, stdout and stderr without their last newline), and the environment is the same: no
 * color settings, this test file's cache, the command's own env and cwd (handed to the servers it
 * starts too: src/run-environment.ts).
 */
type RunCli = (argv: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; stdout?: NodeJS.WriteStream; stderr?: NodeJS.WriteStream }) => Promise<number>;

const LIBRARY = pathToFileURL(fileURLToPath(new URL('../../dist/lib/index.js', import.meta.url))).href;
let runCliLoaded: Promise<RunCli> | undefined;
const loadRunCli = () => (runCliLoaded ??= import(/* @vite-ignore */ LIBRARY).then((library: { runCli: RunCli }) => library.runCli));

export interface InProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, as a pipe (not a terminal) would carry it. */
function captureStream(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    text: () =>
      Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r?\n$/, ''),
  };
}

export async function runInProcess(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<InProcessResult> {
  const runCli = await loadRunCli();
  // A trace context or an OTLP collector of the machine running the tests is not the test's (docs/tracing.md).
  const noTracing = { TRACEPARENT: undefined, TRACESTATE: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    CI: undefined,
    TOOLRUN_CONFIG: undefined,
    ...noTracing,
    XDG_CACHE_HOME: testCacheHome(),
    ...options.env,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const stdout = captureStream();
  const stderr = captureStream();
  const exitCode = await runCli([process.execPath, 'toolrun', ...args], { env, cwd: options.cwd ?? ROOT, stdout: stdout.stream, stderr: stderr.stream });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/** runInProcess, failing the test if anything the command started is left running (runClean's in-process twin). */
export async function runCleanInProcess(args: string[], options: Parameters<typeof runInProcess>[1] = {}): Promise<InProcessResult> {
  const marker = newProcessMarker();
  const result = await runInProcess(args, { ...options, env: { ...options.env, ...marker.env } });
  expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  return result;
}

/**
 * `exec` runs spawned: its warm path (bin/toolrun.js → fast-warm-exec) runs before the CLI loads, so
 * only a process takes it. So does a run given process options (a timeout, a signal). The other
 * commands a holder serves (session start/list/stop, list, time, resources, prompts) go through the
 * CLI either way: they run in this process, which saves a node start and a CLI load each.
 */
export function runEither(args: string[], options: Parameters<typeof runToolrun>[1] & { env?: Record<string, string | undefined> } = {}) {
  const { env, ...processOptions } = options;
  return args.includes('exec') || Object.keys(processOptions).length > 0 ? runToolrun(args, options) : runInProcess(args, { env });
}
