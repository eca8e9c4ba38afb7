import type { ArgWord } from '../args/parse-tool-args.js';
import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { ToolrunError } from '../errors.js';
import type { ToolEnvelope } from '../executor/envelope.js';
import { formatServerLog } from '../output/format-server-log.js';
import type { AskBack } from '../mcp/ask-back.js';
import { answerHolderAsk, askBackMismatch } from './answer-holder-ask.js';
import { findHolder, missingFromHolder } from './find-holder.js';
import { HolderRequestError } from './holder-client.js';
import type { HolderEvent } from './holder-protocol.js';

export interface WarmExecRequest {
  name: string;
  server?: string;
  words: ArgWord[];
  baseArgs: Record<string, unknown>;
  validate: boolean;
  /** No --verbose line when falling back: the caller runs the full CLI, which says why. */
  quiet?: boolean;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * `exec` of an MCP tool through this config's holder (SPEC §12): the holder resolves the tool, types
 * the arguments and calls it on its live server; progress, server logs and (with --verbose) server
 * stderr come back as they happen. Undefined when there is no usable holder or it cannot answer for
 * this tool: the caller then runs the command cold. Callers keep local tools out (isLocalTool).
 */
export async function execThroughHolder(cli: CliContext, config: ToolrunConfig | { key: string }, request: WarmExecRequest): Promise<ToolEnvelope | undefined> {
  const found = await findHolder(cli, config, { quiet: request.quiet });
  const fallBack = (why: string) => {
    if (!request.quiet) cli.terminal.verbose(`session: ${why}; starting servers here`);
    return undefined;
  };
  if (!found) return undefined;
  if (request.server) {
    const missing = missingFromHolder(found.status, [request.server]);
    if (missing) return fallBack(missing);
  }
  const mismatch = askBackMismatch(cli, found.status);
  if (mismatch) return fallBack(mismatch);
  // Built on the first question a held server asks (most calls never get one).
  let askBack: Promise<AskBack> | undefined;
  const commandAskBack = () => (askBack ??= import('../cli-support/ask-back-for.js').then(({ askBackFor }) => askBackFor(cli)));
  // Without --timeout, the holder applies its config's (the same config: the key says so).
  const timeoutMs = cli.globals.timeout ?? ('timeoutMs' in config ? config.timeoutMs : undefined);
  try {
    const reply = await found.client.request(
      'exec',
      { tool: request.name, server: request.server, words: request.words, args: request.baseArgs, validate: request.validate, timeoutMs, verbose: cli.globals.verbose },
      {
        signal: cli.signal,
        onEvent: (event) => (event.event === 'ask' ? answerHolderAsk(found.client, event, commandAskBack, cli.signal) : showEvent(cli, event, request)),
      },
    );
    if (typeof reply.miss === 'string') return fallBack(reply.miss);
    cli.terminal.verbose(`session: ran through the holder (pid ${found.status.pid})`);
    return reply.envelope as ToolEnvelope;
  } catch (error) {
    // The holder's own verdict (tool not found, bad arguments): the same error a cold run gives.
    if (error instanceof HolderRequestError && error.reportedKind) throw error;
    if (cli.signal.aborted) throw cli.signal.reason;
    // The call was handed over: running it again here could run it twice. Say so instead.
    throw new ToolrunError(
      'unreachable',
      `the session holder went away during the call (${(error as Error).message}); the tool may or may not have run. Run the command again (--no-session starts the server here)`,
    );
  }
}

/** What the holder reports during the call, shown as a cold run shows it. */
function showEvent(cli: CliContext, event: HolderEvent, request: WarmExecRequest): void {
  if (event.event === 'progress') request.onProgress?.(event.progress as { progress: number; total?: number; message?: string });
  else if (event.event === 'stderr' && cli.globals.verbose) cli.terminal.serverStderr(event.server!, Buffer.from(String(event.text)));
  else if (event.event === 'log') {
    const { line, isWarning } = formatServerLog(event.server!, event.params as Record<string, unknown>);
    if (isWarning) cli.terminal.warn(line);
    else cli.terminal.info(line);
  } else if (event.event === 'note') {
    const text = String(event.text);
    if (event.level === 'warn') cli.terminal.warn(text);
    else if (event.level === 'info') cli.terminal.info(text);
    else cli.terminal.verbose(text);
  }
}
