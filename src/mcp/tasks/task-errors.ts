import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolrunError } from '../../errors.js';
import { TaskDeadlineError } from './follow-task.js';
import { TaskUnsupportedError } from './task-call.js';

/** A task's failure as one line naming the tool and server (mcp-tool-runner.ts); undefined for other errors. */
export function describeTaskError(error: unknown, toolName: string, server: string): ToolrunError | undefined {
  if (error instanceof TaskDeadlineError) return new ToolrunError('timeout', `Tool '${toolName}' ${error.message} (raise it with --timeout or timeoutMs)`);
  if (error instanceof TaskUnsupportedError) return new ToolrunError('usage', `Tool '${toolName}' of MCP server '${server}' ${error.message}; run it without --task/--no-wait`);
  return undefined;
}

/** The result settleTask gives with --no-wait: the task's id and status. */
export function isStartedTask(result: CallToolResult): boolean {
  const structured = result.structuredContent as { taskId?: unknown; status?: unknown } | undefined;
  return typeof structured?.taskId === 'string' && typeof structured.status === 'string';
}
