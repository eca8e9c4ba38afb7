import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The statuses of a task, the same in both eras (2025-11-25 experimental tasks, the 2026-07-28 extension). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * A task as toolrun reads it in either era: the 2025 names (`ttl`, `pollInterval`) and the 2026
 * ones (`ttlMs`, `pollIntervalMs`) become one shape; the 2026 `tasks/get` also carries the final
 * `result` or `error` inline.
 */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  pollIntervalMs?: number;
  ttlMs?: number | null;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** 2026-07-28 only: the result of a completed task. */
  result?: CallToolResult;
  /** 2026-07-28 only: the JSON-RPC error of a failed task. */
  error?: { code?: number; message?: string; data?: unknown };
  /** 2026-07-28 only: what an `input_required` task asks of the client. */
  inputRequests?: Record<string, unknown>;
}

const STATUSES = new Set<string>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Reads a task from a server's answer; undefined when it is not one (no taskId or an unknown status). */
export function readTask(raw: unknown): TaskState | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const task = raw as Record<string, unknown>;
  if (typeof task.taskId !== 'string' || typeof task.status !== 'string' || !STATUSES.has(task.status)) return undefined;
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const state: TaskState = { taskId: task.taskId, status: task.status as TaskStatus };
  const statusMessage = text(task.statusMessage);
  if (statusMessage !== undefined) state.statusMessage = statusMessage;
  const pollIntervalMs = number(task.pollIntervalMs) ?? number(task.pollInterval);
  if (pollIntervalMs !== undefined) state.pollIntervalMs = pollIntervalMs;
  const ttlMs = task.ttlMs === null || task.ttl === null ? null : (number(task.ttlMs) ?? number(task.ttl));
  if (ttlMs !== undefined) state.ttlMs = ttlMs;
  if (text(task.createdAt)) state.createdAt = text(task.createdAt);
  if (text(task.lastUpdatedAt)) state.lastUpdatedAt = text(task.lastUpdatedAt);
  if (typeof task.result === 'object' && task.result !== null) state.result = task.result as CallToolResult;
  if (typeof task.error === 'object' && task.error !== null) state.error = task.error as TaskState['error'];
  if (typeof task.inputRequests === 'object' && task.inputRequests !== null) state.inputRequests = task.inputRequests as Record<string, unknown>;
  return state;
}

/** One line for a person: `working — step 2 of 4`. */
export function describeTaskStatus(task: { status: string; statusMessage?: string }): string {
  return task.statusMessage ? `${task.status} — ${task.statusMessage}` : task.status;
}

/** Options of one task request: Ctrl-C and its time. */
export interface TaskRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/** The part of a connected client (mcp-client.ts's McpClient) the task requests use. */
export interface TaskClient {
  readonly choice: { era: 'legacy' | 'modern' };
  request(method: string, params: Record<string, unknown> | undefined, options?: TaskRequestOptions): Promise<Record<string, unknown>>;
}
