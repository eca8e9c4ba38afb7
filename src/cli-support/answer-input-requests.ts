import { ToolrunError } from '../errors.js';
import type { AskBack, ElicitParams } from '../mcp/ask-back.js';
import type { TaskCallOptions } from '../registry/tool-types.js';

/**
 * A 2026-07-28 task's `inputRequests` (status input_required) answered by the command's AskBack,
 * keyed as asked, for tasks/update: an elicitation is answered as any other (the same rounds, flags,
 * prompt and bound). A request of a kind the AskBack cannot answer ends the call, naming it.
 */
export function answerInputRequestsWith(askBack: AskBack, server: string): NonNullable<TaskCallOptions['answerInputRequests']> {
  return async (inputRequests, signal) => {
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(inputRequests)) {
      const { method, params } = (request ?? {}) as { method?: unknown; params?: unknown };
      if (method === 'elicitation/create' && askBack.elicit) responses[key] = await askBack.elicit(params as ElicitParams, { server, signal });
      else throw new ToolrunError('tool_error', `server '${server}' asks the task for input toolrun cannot give (${JSON.stringify(String(method))} for '${key}')`);
    }
    return responses;
  };
}
