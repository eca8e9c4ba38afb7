import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolrunError } from '../errors.js';
import { ToolTimeoutError } from '../executor/run-with-timeout.js';
import { describeExit } from './connect/classify-attempt.js';
import { ToolOutput, ToolReportedError } from '../executor/tool-output.js';
import type { ToolRunner } from '../registry/tool-types.js';
import { describeSchemaIssues, isSchemaError } from './describe-invalid-result.js';
import { linkSignal } from './link-signal.js';
import type { ServerConnection } from './server-connection.js';
import { TRANSPORT_FAULT_CODE } from './transports/pending-requests.js';
import { remoteLoss } from './transports/remote-loss.js';
import { simplifyCallResult } from './call-result.js';
import { describeTaskError, isStartedTask } from './tasks/task-errors.js';
import { describeUrlElicitationRequired } from './url-elicitation-required.js';

const ignoreProgress = () => {};

// MCP error code of the SDK's request timeout.
const REQUEST_TIMEOUT = -32001;

/**
 * Calls one tool of a connected server; `isError` results become ToolReportedError with the server's
 * text. The deadline is the SDK's own request timeout (registered with enforcesTimeout): when it
 * fires, the SDK sends notifications/cancelled to the server and the call ends with ToolTimeoutError.
 */
export function createMcpRunner(connection: ServerConnection, toolName: string): ToolRunner {
  return async (args, context) => {
    // The SDK never removes the abort listener it adds to a request's signal, so a long-lived signal
    // (a whole session's Ctrl-C) gets a per-call child that can be dropped after the call.
    const linked = context.signal ? linkSignal(context.signal) : undefined;
    let result: CallToolResult;
    try {
      // Progress is asked for on every call (SPEC §10): a server shows it only when asked.
      result = await connection.client.callTool(toolName, args, { signal: linked?.signal, timeout: context.timeoutMs, onProgress: context.onProgress ?? ignoreProgress, task: context.task });
    } catch (error) {
      // The SDK reports an aborted request as a timeout error; the abort's own reason says why.
      if (context.signal?.aborted) throw context.signal.reason;
      const taskError = describeTaskError(error, toolName, connection.name);
      if (taskError) throw taskError;
      const urlNeeded = describeUrlElicitationRequired(error, connection.name, toolName);
      if (urlNeeded) throw new ToolrunError('tool_error', urlNeeded, { cause: error });
      if ((error as { code?: number }).code === REQUEST_TIMEOUT) throw new ToolTimeoutError(context.timeoutMs);
      const gone = serverGoneError(connection, toolName);
      if (gone) throw gone;
      if ((error as { code?: number }).code === TRANSPORT_FAULT_CODE) {
        // What the server wrote to stderr just before the fault is in the other pipe, maybe not read
        // yet: a moment for it to arrive, so the evidence shown with the error is complete.
        await new Promise((resolve) => setTimeout(resolve, STDERR_SETTLE_MS));
        const reason = (error as Error).message.replace(/^MCP error -?\d+: /, '');
        throw new ToolrunError('tool_error', `MCP server '${connection.name}': ${reason}`, { details: connection.stdio?.stderr.lastLines(STDERR_TAIL_LINES) ?? [] });
      }
      // The SDK's Zod dump of a malformed result, made one line naming the field.
      if (isSchemaError(error)) throw new ToolrunError('tool_error', `MCP server '${connection.name}' returned an invalid result for '${toolName}': ${describeSchemaIssues(error)}`);
      throw error;
    } finally {
      linked?.dispose();
    }
    // --no-wait: the task's id is the result, named with its server.
    if (context.task?.wait === false && isStartedTask(result)) result = { ...result, structuredContent: { ...result.structuredContent, server: connection.name } };
    if (result.isError) throw new ToolReportedError(textOf(result) || `tool '${toolName}' returned an error with no text`, result);
    return new ToolOutput(simplifyCallResult(result), result);
  };
}

/** Lines of a dead server's stderr shown with the error (the same evidence doctor shows). */
const STDERR_TAIL_LINES = 10;
const STDERR_SETTLE_MS = 30;

/**
 * When the server died during the call, the SDK says only "Connection closed": say how it exited,
 * with its stderr tail, as doctor does. Over HTTP, what the connection did: dropped mid-answer (the
 * call fails, as a stdio server's exit fails it), or refused (nothing listens: unreachable, exit 4).
 */
function serverGoneError(connection: ServerConnection, toolName: string): ToolrunError | undefined {
  const stdio = connection.stdio;
  const remote = stdio ? undefined : (remoteLoss(connection.client.transport?.inner) ?? remoteLoss(connection.transport));
  if (remote?.kind === 'dropped') return new ToolrunError('tool_error', `MCP server '${connection.name}' went away during the call to '${toolName}': ${remote.reason}; its own log says why`);
  if (remote) return new ToolrunError('unreachable', `MCP server '${connection.name}' is unreachable: ${remote.reason}; start it again, or check "url"`);
  if (!stdio?.exitInfo) return undefined;
  const tail = stdio.stderr.lastLines(STDERR_TAIL_LINES);
  const last = tail.at(-1);
  return new ToolrunError(
    'tool_error',
    `MCP server '${connection.name}' ${describeExit(stdio.exitInfo)} during the call to '${toolName}'${last ? `; its stderr ends: ${last}` : ' (it wrote nothing to stderr)'}`,
    { details: tail },
  );
}

function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((item) => item.type === 'text')
    .map((item) => (item as { text: string }).text)
    .join('\n');
}
