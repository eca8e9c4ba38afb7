import type { AskBack, AskContext } from '../mcp/ask-back.js';
import type { RequestContext } from './holder-ops.js';
import type { AskMethod } from './holder-protocol.js';

/**
 * The AskBack a holder connects its servers with (SPEC §12, §15). A server's question during a call
 * is the question of the command that made the call: it is relayed over the holder's socket to that
 * command, which answers with its own flags (or its terminal) — not the holder. What is advertised is
 * decided once, when the server is connected: elicitation always (every command can answer or
 * decline one); sampling and roots only when the holder was started with a responder or a root,
 * which also answer when no command is attached (a server asking for roots right after the
 * handshake) or the command has none of its own.
 */
export function relayingAskBack(own: AskBack, attachedTo: (server: string) => RequestContext | undefined, logLine: (text: string) => void): AskBack {
  const relay = async <T>(method: AskMethod, params: unknown, context: AskContext, fallback: () => Promise<T>): Promise<T> => {
    const command = attachedTo(context.server);
    if (!command) {
      logLine(`server '${context.server}' sent ${method} while no command was using it: answered with the holder's own flags`);
      return fallback();
    }
    const answer = await command.ask({ server: context.server, method, params }, context.signal);
    if ('result' in answer) return answer.result as T;
    if ('error' in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code ?? -32603 });
    return fallback();
  };
  const { elicit, sample, roots } = own;
  return {
    // The holder's own elicit declines (and logs how to answer) unless `session start` had answers.
    elicit: (params, context) => relay('elicitation/create', params, context, async () => (elicit ? elicit(params, context) : { action: 'decline' as const })),
    ...(sample && { sample: (params, context) => relay('sampling/createMessage', params, context, () => sample(params, context)) }),
    ...(roots && {
      roots: async (context: AskContext) => (await relay('roots/list', {}, context, async () => ({ roots: await roots(context) }))).roots,
    }),
  };
}
