import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TaskCallOptions } from '../../registry/tool-types.js';
import { ToolrunError } from '../../errors.js';
import { followTask } from './follow-task.js';
import type { TaskClient, TaskState } from './task-state.js';

/** How long toolrun asks a 2025-11-25 server to keep a task: long enough for a later `tasks get`. */
export const REQUESTED_TASK_TTL_MS = 600_000;

/** A tool that cannot run as a task was asked to (--task, --no-wait): why, for the usage error. */
export class TaskUnsupportedError extends ToolrunError {
  constructor(readonly reason: string) {
    super('usage', `does not run as a task (${reason})`);
    this.name = 'TaskUnsupportedError';
  }
}

/**
 * Whether a 2025-11-25 call is task-augmented: the server must offer tasks for tools/call, and the
 * tool's execution.taskSupport decides ('required': always; 'optional': when asked with --task or
 * --no-wait). Asking for a task the tool cannot give is refused before anything is sent.
 */
export function runsAsTask(capabilities: unknown, tool: Tool | undefined, task: TaskCallOptions | undefined): boolean {
  const asked = task?.asTask === true || task?.wait === false;
  const offered = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks?.requests?.tools?.call !== undefined;
  const support = (tool as { execution?: { taskSupport?: string } } | undefined)?.execution?.taskSupport;
  if (offered && support === 'required') return true;
  if (offered && support === 'optional') return asked;
  if (!asked) return false;
  throw new TaskUnsupportedError(!offered ? 'the server does not offer tasks for tools/call' : support ? `execution.taskSupport is '${support}'` : 'no execution.taskSupport');
}

/**
 * The end of a call that made a task: followed to its end, or (`wait: false`) a result that names
 * the task, its id as the text and {taskId, status} as structuredContent.
 */
export async function settleTask(client: TaskClient, created: TaskState, startedAt: number, options: { signal?: AbortSignal; timeout?: number; task?: TaskCallOptions }): Promise<CallToolResult> {
  if (options.task?.wait === false) {
    options.task.onStatus?.(created);
    return { content: [{ type: 'text', text: created.taskId }], structuredContent: { taskId: created.taskId, status: created.status } };
  }
  return followTask(client, created, {
    signal: options.signal,
    timeoutMs: options.timeout ?? 60_000,
    startedAt,
    onStatus: options.task?.onStatus,
    answerInputRequests: options.task?.answerInputRequests,
  });
}
