import { exitCodeOf } from '../process/exit-info.js';
import { LineSplitter, type RawLine } from '../process/line-splitter.js';
import { PATIENT_GRACE_MS, ServerProcess, SpawnError } from '../process/server-process.js';
import type { RecordingWriter } from '../record/recording.js';
import { classifyLine } from '../scan/classify-line.js';
import type { FindingKind } from '../scan/finding-kinds.js';
import type { TapLockGate } from './lock-gate.js';

export interface TapOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Drop stdout lines that are not JSON-RPC (reported), so a polluting server works in a strict host. */
  guard: boolean;
  recording?: RecordingWriter;
  /** --lock: tools not pinned as they are are taken out of list answers and their calls refused (lock-gate.ts). */
  lock?: TapLockGate;
  /** A polluting stdout line: `dropped` with --guard. */
  onPollution: (line: RawLine, kinds: FindingKind[], dropped: boolean) => void;
  /** The server could not be started (command not found…). */
  onSpawnError: (error: SpawnError) => void;
  signal: AbortSignal;
  host: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
}

/**
 * `mcp tap` (SPEC §11): a stdio proxy between a host (Claude Desktop, Cursor, VS Code) and a server.
 * Bytes go through unchanged both ways — the host's stdin to the server, the server's stdout to the
 * host (with --guard, only its JSON-RPC lines), its stderr to ours — while stdout is scanned line by
 * line and everything is recorded. Ends when the host closes stdin (the server gets stdin closed,
 * then SIGTERM, then SIGKILL, its descendants too) or when the server exits. Resolves to the exit code.
 */
export interface TapOutcome {
  /** The server's exit code (or 128 + signal number). */
  serverCode: number;
  /** The host ended the session (closed stdin) or toolrun was interrupted, rather than the server exiting by itself. */
  endedByHost: boolean;
  spawnFailed: boolean;
}

export async function runTap(options: TapOptions): Promise<TapOutcome> {
  const { host, recording } = options;
  let server: ServerProcess;
  try {
    server = await ServerProcess.start({ ...options, shutdownGraceMs: PATIENT_GRACE_MS });
  } catch (error) {
    if (!(error instanceof SpawnError)) throw error;
    options.onSpawnError(error);
    // What a shell says of a command it cannot run.
    return { serverCode: 127, endedByHost: false, spawnFailed: true };
  }
  let endedByHost = false;
  const shutdown = () => {
    endedByHost = true;
    return server.shutdown();
  };

  // Host → server, unchanged; with --lock, line by line, a refused call answered here instead.
  const send = (chunk: Buffer) => {
    recording?.write('send', chunk);
    if (!server.stdin.write(chunk)) {
      host.stdin.pause();
      server.stdin.once('drain', () => host.stdin.resume());
    }
  };
  const { lock } = options;
  const hostLines =
    lock &&
    new LineSplitter((line) => {
      const verdict = lock.fromHost(line.bytes);
      if (verdict.forward) send(line.terminated ? Buffer.concat([verdict.forward, NEWLINE]) : verdict.forward);
      if (verdict.answer) write(Buffer.concat([verdict.answer, NEWLINE]));
    }, Number.MAX_SAFE_INTEGER);
  host.stdin.on('data', (chunk: Buffer) => (hostLines ? hostLines.push(chunk) : send(chunk)));
  host.stdin.once('end', () => {
    hostLines?.end();
    void shutdown();
  });

  // Server → host: scanned line by line; forwarded as they came, or (--guard) only its messages, or
  // (--lock) each line as the gate leaves it. Then whole lines are forwarded, none cut at the scanner's usual 10 MB.
  const byLine = options.guard || lock !== undefined;
  const splitter = new LineSplitter(
    (line) => {
      const verdict = classifyLine(line.bytes, line.terminated, line.oversize);
      if (byLine && (verdict.isMessage || !options.guard)) {
        const bytes = lock ? lock.fromServer(line.bytes, verdict.value) : line.bytes;
        write(line.terminated ? Buffer.concat([bytes, NEWLINE]) : bytes);
      }
      if (!verdict.isMessage || verdict.kinds.length > 0) options.onPollution(line, verdict.kinds, options.guard && !verdict.isMessage);
    },
    byLine ? Number.MAX_SAFE_INTEGER : undefined,
  );
  const write = (chunk: Buffer) => {
    if (!host.stdout.write(chunk)) {
      server.stdout.pause();
      host.stdout.once('drain', () => server.stdout.resume());
    }
  };
  server.stdout.on('data', (chunk: Buffer) => {
    recording?.write('recv', chunk);
    if (!byLine) write(chunk);
    splitter.push(chunk);
  });
  server.stdout.once('end', () => splitter.end());
  server.stderr.on('data', (chunk: Buffer) => {
    recording?.write('stderr', chunk);
    host.stderr.write(chunk);
  });

  // Ctrl-C may have come while the server was starting: a listener added now would never hear it.
  if (options.signal.aborted) void shutdown();
  else options.signal.addEventListener('abort', () => void shutdown(), { once: true });
  const exit = await server.exited;
  // After an exit of its own: what it left running is ended too, and its last output forwarded.
  await server.shutdown();
  return { serverCode: exitCodeOf(exit), endedByHost, spawnFailed: false };
}

const NEWLINE = Buffer.from('\n');
