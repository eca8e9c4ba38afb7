import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolOutput, ToolReportedError } from '../executor/tool-output.js';
import type { ToolRunner } from '../registry/tool-types.js';
import type { ServerConnection } from './server-connection.js';

// The SDK's own request timeout must not fire before toolrun's (its default is 60 s, which would cap
// a larger --timeout); toolrun's deadline aborts the request, which sends notifications/cancelled.
const SDK_TIMEOUT_MARGIN_MS = 5_000;

/** Calls one tool of a connected server; `isError` results become ToolReportedError with the server's text. */
export function createMcpRunner(connection: ServerConnection, toolName: string): ToolRunner {
  return async (args, context) => {
    const result = (await connection.client.callTool({ name: toolName, arguments: args }, undefined, {
      signal: context.signal,
      timeout: context.timeoutMs + SDK_TIMEOUT_MARGIN_MS,
    })) as CallToolResult;
    if (result.isError) throw new ToolReportedError(textOf(result) || `tool '${toolName}' returned an error with no text`, result);
    return new ToolOutput(simplifyCallResult(result), result);
  };
}

/**
 * The useful value of a result: structuredContent when the server gives it, the text when all
 * content is text, else the content items themselves (images, audio, resources).
 */
export function simplifyCallResult(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content ?? [];
  if (content.every((item) => item.type === 'text')) return content.map((item) => (item as { text: string }).text).join('\n');
  return content;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((item) => item.type === 'text')
    .map((item) => (item as { text: string }).text)
    .join('\n');
}
