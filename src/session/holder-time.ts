import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import type { PreparedCall } from '../executor/tool-executor.js';
import type { TimedCallsOptions, TimedCallsResult } from '../timing/run-timed-calls.js';
import { ToolrunError } from '../errors.js';
import { findHolder } from './find-holder.js';
import { HolderRequestError } from './holder-client.js';
import type { HolderEvent } from './holder-protocol.js';

/**
 * `toolrun time` of a tool whose server a holder keeps: the loop runs in the holder (holder-ops.ts
 * timeOp). Undefined when the holder is gone meanwhile: the caller times it here instead.
 */
export async function timeThroughHolder(cli: CliContext, config: ToolrunConfig, prepared: PreparedCall, options: Omit<TimedCallsOptions, 'isFatal'>): Promise<TimedCallsResult | undefined> {
  const found = await findHolder(cli, config);
  if (!found) return undefined;
  const fields = {
    tool: prepared.tool.qualifiedName,
    args: prepared.args,
    iterations: options.iterations,
    warmup: options.warmup,
    concurrency: options.concurrency,
    timeoutMs: cli.globals.timeout ?? config.timeoutMs,
  };
  const onEvent = (event: HolderEvent) => (event.event === 'timed' ? options.onProgress?.(event.count as number) : undefined);
  const reply = await found.client.request('time', fields, { signal: options.signal, onEvent }).catch((error: unknown) => {
    if (error instanceof HolderRequestError && error.reportedKind) throw error;
    throw new ToolrunError('unreachable', `the session holder went away during the run (${(error as Error).message}); run it again`);
  });
  const result = reply.result as Omit<TimedCallsResult, 'errors'> & { errors: Array<[string, number]> };
  return { ...result, errors: new Map(result.errors) };
}
