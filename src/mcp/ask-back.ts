import type { ClientCapabilities, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** What a server's question comes with: who asks, and the signal of the request it belongs to (Ctrl-C, the call's timeout). */
export interface AskContext {
  server: string;
  signal: AbortSignal;
}

export type ElicitParams = ElicitRequest['params'];
export type SamplingParams = CreateMessageRequest['params'];

/** A root the client offers (`roots/list`): a `file://` URI, and a name to show. */
export interface ClientRoot {
  uri: string;
  name?: string;
}

/**
 * How toolrun answers a server that asks the client back (SPEC §15): elicitation (`elicitation/create`
 * in the 2025 family, an `input_required` round in 2026-07-28), sampling, roots. Built by the CLI from
 * its flags and the terminal, or given by a library caller. What is absent is not advertised: a
 * server never asks what toolrun could not answer.
 */
export interface AskBack {
  elicit?: (params: ElicitParams, context: AskContext) => Promise<ElicitResult>;
  sample?: (params: SamplingParams, context: AskContext) => Promise<CreateMessageResult>;
  /** May be asynchronous: a session holder asks the command in progress (session/relay-ask-back.ts). */
  roots?: (context: AskContext) => ClientRoot[] | Promise<ClientRoot[]>;
}

/** The client capabilities an AskBack stands for, sent in `initialize` (2025) or each request's `_meta` (2026-07-28). */
export function clientCapabilitiesOf(askBack: AskBack | undefined): ClientCapabilities {
  return {
    // Both modes: a URL is shown (and opened on a terminal); form answers come from flags, a file or the person.
    ...(askBack?.elicit && { elicitation: { form: {}, url: {} } }),
    ...(askBack?.sample && { sampling: {} }),
    ...(askBack?.roots && { roots: { listChanged: false } }),
  };
}

/** The part of both SDKs' clients that takes a handler for a server's request, by method name. */
type HandlerTarget = (method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list', handler: (request: { params?: unknown }, signal: AbortSignal) => Promise<unknown>) => void;

/**
 * Installs the AskBack's answers as the client's request handlers. The v1 SDK takes them by schema,
 * the v2 client by method name; in 2026-07-28 the v2 client's multi-round-trip driver hands the
 * requests embedded in an `input_required` result to these same handlers.
 */
export function installAskBack(setHandler: HandlerTarget, askBack: AskBack | undefined, server: string): void {
  if (!askBack) return;
  const { elicit, sample, roots } = askBack;
  if (elicit) setHandler('elicitation/create', (request, signal) => elicit(request.params as ElicitParams, { server, signal }));
  if (sample) setHandler('sampling/createMessage', (request, signal) => sample(request.params as SamplingParams, { server, signal }));
  if (roots) setHandler('roots/list', async (_request, signal) => ({ roots: await roots({ server, signal }) }));
}
