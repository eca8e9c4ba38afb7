import type { CliContext } from '../cli-support/cli-context.js';
import type { AskBack, ElicitParams, SamplingParams } from '../mcp/ask-back.js';
import type { HolderClient } from './holder-client.js';
import type { AskAnswer, AskMethod, HolderEvent, HolderStatus } from './holder-protocol.js';

/**
 * Answers a question a held server asked during this command's request (an `ask` event, relayed by
 * the holder: relay-ask-back.ts) with this command's AskBack — its flags, its terminal — and sends
 * the answer back. A kind this command has no answer for is `unhandled`: the holder answers it.
 */
export function answerHolderAsk(holder: HolderClient, event: HolderEvent, askBack: () => Promise<AskBack>, signal: AbortSignal): void {
  void (async (): Promise<AskAnswer> => {
    const { elicit, sample, roots } = await askBack();
    const context = { server: event.server ?? '', signal };
    const method = event.method as AskMethod;
    try {
      if (method === 'elicitation/create' && elicit) return { result: await elicit(event.params as ElicitParams, context) };
      if (method === 'sampling/createMessage' && sample) return { result: await sample(event.params as SamplingParams, context) };
      if (method === 'roots/list' && roots) return { result: { roots: await roots(context) } };
      return { unhandled: true };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { error: { message: (error as Error).message, ...(typeof code === 'number' && { code }) } };
    }
  })()
    .catch((error: Error) => ({ error: { message: error.message } }))
    .then((answer) => holder.send('answer', { ask: event.ask, answer }).reply.catch(() => {}));
}

/**
 * Why this command cannot use the holder: it offers sampling or roots the holder's servers were not
 * told of when they connected (they would never ask); undefined when it can.
 */
export function askBackMismatch(cli: Pick<CliContext, 'globals'>, status: HolderStatus): string | undefined {
  const flags = cli.globals.askBack;
  const wantsSampling = flags.samplingReply !== undefined || flags.sampling !== undefined || flags.samplingCommand !== undefined;
  if (wantsSampling && !status.offers?.sampling) return 'the holder does not offer sampling (start it with --sampling-reply TEXT)';
  if (flags.root.length > 0 && !status.offers?.roots) return 'the holder does not offer roots (start it with --root DIR)';
  return undefined;
}
