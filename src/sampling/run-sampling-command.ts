import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { SamplingParams } from '../mcp/ask-back.js';
import { ByteTail } from '../process/byte-tail.js';
import { ServerProcess } from '../process/server-process.js';
import { resultFromJson, textResult } from './sampling-result.js';

export const COMMAND_MODEL = 'toolrun --sampling-command';
/** A model's reply is text: a command printing more is broken (`yes`, a loop), and is ended, not buffered. */
export const MAX_REPLY_BYTES = 1024 * 1024;

export interface SamplingCommandOptions {
  /** The command and its arguments (command-words.ts). */
  words: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long it may take: the call's timeout, since the server waits for the reply inside the call. */
  timeoutMs: number;
  /** Ctrl-C, or the server withdrawing its request: the command is ended. */
  signal: AbortSignal;
  maxReplyBytes?: number;
}

/** Why the command gave no reply, as the end of a sentence: "exited with code 3: boom", "printed more than 1 MB (ended it)". */
export class SamplingCommandError extends Error {
  /**
   * `reason` is what went wrong; `detail` (the command's last stderr line) is for the person only: a
   * model CLI's error may quote an API key, and the server (maybe remote, maybe hostile) gets `reason` alone.
   */
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'SamplingCommandError';
  }
}

/**
 * Runs `--sampling-command` for one sampling request: the request's params as JSON on its stdin
 * (closed after), its stdout the reply — a JSON object is the whole result, anything else a text
 * reply, read to its end (not for a fixed moment after the exit: under load the last bytes come
 * later, and a reply was lost as "printed nothing"). It runs as a server does (server-process.ts):
 * the leader of its own process group, tracked so that it never outlives toolrun, its descendants
 * watched while it runs (a helper it started with setsid() is ended with it), and ended with
 * everything it started when it takes longer than `timeoutMs`, prints more than `maxReplyBytes`, or
 * `signal` aborts. How many run at once is the caller's (sampling-queue.ts).
 */
export async function runSamplingCommand(request: SamplingParams, options: SamplingCommandOptions): Promise<CreateMessageResult> {
  const [command, ...args] = options.words as [string, ...string[]];
  const limit = options.maxReplyBytes ?? MAX_REPLY_BYTES;
  let child: ServerProcess;
  try {
    child = await ServerProcess.start({ command, args, cwd: options.cwd, env: options.env, shutdownGraceMs: 100, watchDescendants: true });
  } catch (error) {
    throw new SamplingCommandError(`could not start: ${(error as Error).message}`);
  }
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  const stderr = new ByteTail(16 * 1024);
  let ended: string | undefined;
  let stopped: () => void = () => {};
  const stopping = new Promise<void>((resolve) => (stopped = resolve));
  const end = (reason: string) => {
    if (ended) return;
    ended = reason;
    void child.shutdown().then(stopped);
  };
  const stdoutDone = new Promise<void>((resolve) => {
    child.stdout.once('end', resolve);
    child.stdout.once('close', resolve);
    child.stdout.once('error', () => resolve());
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes > limit) return end(`printed more than ${describeBytes(limit)} (ended it)`);
    stdout.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(`${JSON.stringify(request)}\n`);
  const timer = setTimeout(() => end(`did not answer within ${options.timeoutMs} ms (ended it)`), options.timeoutMs);
  const onAbort = () => end('was interrupted (ended it)');
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    // The reply is complete once the command exited and its stdout ended (a helper holding stdout open
    // is waited for until the time limit ends them both).
    await Promise.race([Promise.all([child.exited, stdoutDone]), stopping]);
    const exit = await child.exited;
    // Ends what it left running (what was watched too) and stops tracking it.
    await child.shutdown();
    if (ended) throw new SamplingCommandError(ended);
    const lastLine = stderr.lastLines(1)[0]?.trim();
    if (exit.code !== 0) throw new SamplingCommandError(exit.code === null ? `was killed by ${exit.signal ?? 'a signal'}` : `exited with code ${exit.code}`, lastLine || undefined);
    return replyOf(Buffer.concat(stdout).toString('utf8'));
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** A JSON object is the whole result; any other output is the text of a reply (its trailing newline dropped). */
function replyOf(output: string): CreateMessageResult {
  const text = output.replace(/\r?\n$/, '');
  if (text.trim() === '') throw new SamplingCommandError('printed nothing (a reply is text, or a JSON result, on stdout)');
  if (text.trimStart().startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Text that happens to start with a brace: a text reply.
      return textResult(text, COMMAND_MODEL);
    }
    const result = resultFromJson(value as Record<string, unknown>, COMMAND_MODEL);
    if (typeof result === 'string') throw new SamplingCommandError(`printed a JSON object that is not a sampling result: ${result}`);
    return result;
  }
  return textResult(text, COMMAND_MODEL);
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : bytes % 1024 === 0 ? `${bytes / 1024} kB` : `${bytes} bytes`;
}
