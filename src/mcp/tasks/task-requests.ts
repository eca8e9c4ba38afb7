import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolrunError } from '../../errors.js';
import { readTask, type TaskClient, type TaskRequestOptions, type TaskState } from './task-state.js';

/**
 * The task requests of both eras over one connected client. The v2 client lets `tasks/get` and
 * `tasks/cancel` through to a 2026-07-28 server when given a result schema (the extension re-uses
 * them); `tasks/result` exists only in the 2025-11-25 era (in 2026 the result comes inline).
 */
export async function getTask(client: TaskClient, taskId: string, options?: TaskRequestOptions): Promise<TaskState> {
  const answer = await client.request('tasks/get', { taskId }, options);
  const task = readTask(answer);
  if (!task) throw new ToolrunError('tool_error', `the server answered tasks/get for ${taskId} with something that is not a task`);
  return task;
}

/** tasks/cancel; the task as the server left it (2026-07-28 answers with an empty ack: then 'cancelled'). */
export async function cancelTask(client: TaskClient, taskId: string, options?: TaskRequestOptions): Promise<TaskState> {
  const answer = await client.request('tasks/cancel', { taskId }, options);
  return readTask(answer) ?? { taskId, status: 'cancelled' };
}

/** The tool result of a task that ended: inline in 2026-07-28, from tasks/result in 2025-11-25. */
export async function taskResult(client: TaskClient, task: TaskState, options?: TaskRequestOptions): Promise<CallToolResult | undefined> {
  if (client.choice.era === 'modern') return task.result;
  return (await client.request('tasks/result', { taskId: task.taskId }, options)) as CallToolResult;
}

/** tasks/update (2026-07-28): answers to an input_required task's inputRequests. */
export async function updateTask(client: TaskClient, taskId: string, inputResponses: Record<string, unknown>, options?: TaskRequestOptions): Promise<void> {
  await client.request('tasks/update', { taskId, inputResponses }, options);
}

/** A server's refusal as one line: the SDK's "MCP error -32602: " prefix dropped. */
export function refusalText(error: unknown): string {
  return String((error as Error)?.message ?? error).replace(/^MCP error -?\d+: /, '');
}
