import { isatty } from 'node:tty';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TIMEOUT_MS } from '../config/config-types.js';
import { UsageError } from '../errors.js';
import type { AskBack, AskContext, SamplingParams } from '../mcp/ask-back.js';
import { splitCommandWords } from '../input/split-words.js';
import { runSamplingCommand, SamplingCommandError } from '../sampling/run-sampling-command.js';
import { SamplingQueue, SamplingQueueError } from '../sampling/sampling-queue.js';
import { textResult } from '../sampling/sampling-result.js';
import { readSamplingScript } from '../sampling/sampling-script.js';
import type { AskBackFlags, CliContext } from './cli-context.js';
import { typeSamplingReply } from './typed-sampling-reply.js';

type Sample = NonNullable<AskBack['sample']>;

/** JSON-RPC error codes of a refused sampling request: the spec's "user rejected" (-1), and a responder that broke. */
const DECLINED = -1;
const RESPONDER_FAILED = -32603;

/**
 * How this command answers sampling requests (SPEC §15), or undefined: then sampling is not
 * advertised. One responder: `--sampling-reply TEXT`, `--sampling FILE`, `--sampling-command CMD`,
 * else the person when stdin and stderr are a terminal. Every failure reaches the server as an
 * error reply, and the person as one warning line saying what went wrong.
 */
export function samplingFor(cli: Pick<CliContext, 'globals' | 'terminal' | 'cwd' | 'env' | 'signal'>, timeoutMs?: number, tty = isatty(0) && isatty(2)): Sample | undefined {
  const flags = cli.globals.askBack;
  const given = [flags.samplingReply, flags.sampling, flags.samplingCommand].filter((flag) => flag !== undefined);
  if (given.length > 1) throw new UsageError('--sampling-reply, --sampling and --sampling-command each answer every sampling request: give one');
  if (flags.samplingReply !== undefined) {
    const reply = textResult(flags.samplingReply, 'toolrun --sampling-reply');
    return async () => reply;
  }
  if (flags.sampling !== undefined) return scriptedSampling(cli, flags.sampling);
  if (flags.samplingCommand !== undefined) return commandSampling(cli, flags.samplingCommand, cli.globals.timeout ?? timeoutMs ?? DEFAULT_TIMEOUT_MS, queueOf(flags));
  return tty ? terminalSampling(cli) : undefined;
}

/** The replies of a --sampling file still to give, per command (its servers may connect in turns, but share one script). */
const scripts = new WeakMap<AskBackFlags, { replies: CreateMessageResult[]; given: number }>();

function scriptedSampling(cli: Pick<CliContext, 'globals' | 'terminal'>, path: string): Sample {
  const flags = cli.globals.askBack;
  let script = scripts.get(flags);
  if (!script) scripts.set(flags, (script = { replies: readSamplingScript(path), given: 0 }));
  const state = script;
  return async (_params, context) => {
    const reply = state.replies[state.given++];
    if (reply) return reply;
    const count = `${state.replies.length} repl${state.replies.length === 1 ? 'y' : 'ies'}`;
    cli.terminal.warn(`server '${context.server}' asked for sampling request ${state.given} but --sampling ${path} holds ${count}: answered with an error (add replies to the file)`);
    throw rpcError(DECLINED, `no sampling reply left: ${path} holds ${state.replies.length}`);
  };
}

/** The --sampling-command runs of one command, across all its servers: a few at once, a bounded number in all. */
const queues = new WeakMap<AskBackFlags, SamplingQueue>();

function queueOf(flags: AskBackFlags): SamplingQueue {
  let queue = queues.get(flags);
  if (!queue) queues.set(flags, (queue = new SamplingQueue()));
  return queue;
}

function commandSampling(cli: Pick<CliContext, 'terminal' | 'cwd' | 'env' | 'signal'>, commandLine: string, timeoutMs: number, queue: SamplingQueue): Sample {
  const words = splitCommandWords(commandLine);
  if (typeof words === 'string') throw new UsageError(`--sampling-command ${JSON.stringify(commandLine)}: ${words}`);
  let saidLimit = false;
  return async (params: SamplingParams, context: AskContext) => {
    const signal = AbortSignal.any([context.signal, cli.signal]);
    try {
      return await queue.run(() => runSamplingCommand(params, { words, cwd: cli.cwd, env: cli.env, timeoutMs, signal }), signal);
    } catch (error) {
      if (!(error instanceof SamplingCommandError || error instanceof SamplingQueueError)) throw error;
      // Past the limit, every further request is refused the same way: said once.
      const repeated = error instanceof SamplingQueueError && error.pastLimit && saidLimit;
      if (error instanceof SamplingQueueError && error.pastLimit) saidLimit = true;
      if (!repeated) cli.terminal.warn(`server '${context.server}': --sampling-command '${commandLine}' ${error.message}; the server got an error`);
      throw rpcError(RESPONDER_FAILED, `toolrun's --sampling-command failed: it ${error.reason}`);
    }
  };
}

/** The person types each reply; one request at a time, as two servers (or two rounds) may ask at once. */
function terminalSampling(cli: Pick<CliContext, 'terminal'>): Sample {
  let turn: Promise<unknown> = Promise.resolve();
  return (params, context) => {
    const answer = turn.then(async () => {
      const reply = await typeSamplingReply(params, context.server, { input: process.stdin, write: (text) => cli.terminal.stderr.write(text) });
      if (!reply) throw rpcError(DECLINED, 'the sampling request was declined at the terminal');
      return reply;
    });
    turn = answer.catch(() => {});
    return answer;
  };
}

/** An error both SDKs send back as the JSON-RPC error of the server's request (they take its `code`). */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
