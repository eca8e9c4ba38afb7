import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolrunError } from '../../errors.js';
import { ToolReportedError } from '../../executor/tool-output.js';
import { cancelTask, getTask, refusalText, taskResult, updateTask } from './task-requests.js';
import { isTerminal, type TaskClient, type TaskState } from './task-state.js';

/** What a caller tells the follower (SPEC §15). */
export interface FollowTaskOptions {
  /** Ctrl-C: the task is cancelled on the server, then the signal's reason is thrown. */
  signal?: AbortSignal;
  /** The whole call's time; past it the task is cancelled on the server (TaskDeadlineError). */
  timeoutMs: number;
  /** When the call started (performance.now()): the task's creation counts against the time. */
  startedAt: number;
  /** Each change of status or status message, the created task first. */
  onStatus?: (task: TaskState) => void;
  /** 2026-07-28: answers to an input_required task's inputRequests (elicitation and the like). */
  answerInputRequests?: (inputRequests: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;
}

/** The task outlived the call's time; it was cancelled on the server (or `cancelFailure` says why not). */
export class TaskDeadlineError extends ToolrunError {
  constructor(
    readonly task: TaskState,
    readonly timeoutMs: number,
    readonly cancelFailure: string | undefined,
  ) {
    super('timeout', `timed out after ${timeoutMs} ms; its task ${task.taskId} (still ${task.status}) ${cancelFailure ? `could not be cancelled: ${cancelFailure}` : 'was cancelled on the server'}`);
    this.name = 'TaskDeadlineError';
  }
}

/** Servers that give no pollInterval are asked this often; any interval is kept within these bounds. */
const DEFAULT_POLL_MS = 500;
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 5000;
/** How long a tasks/cancel may take once the call is over (Ctrl-C or the deadline). */
const CANCEL_WAIT_MS = 1000;

/**
 * Follows a created task to its end: tasks/get at the server's pollInterval (2025-11-25: tasks/result
 * once it ends or needs input; 2026-07-28: the result comes inline), statuses reported as they
 * change. The SDKs' own followers (v1 callToolStream) neither cancel the task on abort nor wake from
 * their sleep for it, and drop a failed task's reason, so toolrun drives the loop itself.
 */
export async function followTask(client: TaskClient, created: TaskState, options: FollowTaskOptions): Promise<CallToolResult> {
  const deadline = options.startedAt + options.timeoutMs;
  const stop = new AbortController();
  let task = created;
  let cancelling: Promise<string | undefined> | undefined;
  // Sent the moment Ctrl-C comes (not after the loop notices): toolrun's shutdown of the server
  // starts at the same moment, and the request must be on the wire before the server's stdin closes.
  const cancel = () => (cancelling ??= cancelTask(client, task.taskId, { timeout: CANCEL_WAIT_MS }).then(() => undefined, refusalText));
  const onAbort = () => {
    void cancel();
    stop.abort(options.signal!.reason);
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop.abort(new TaskDeadlineError(task, options.timeoutMs, undefined)), Math.max(0, deadline - performance.now()));
  const remaining = () => Math.max(1, deadline - performance.now());
  // A request's own timeout a little past the deadline, so that the deadline's timer (which cancels
  // the task) always ends the call first.
  const requestTime = () => remaining() + CANCEL_WAIT_MS;
  const answered = new Set<string>();
  let shown = '';
  const show = (next: TaskState) => {
    const line = `${next.status}\n${next.statusMessage ?? ''}`;
    if (line !== shown) options.onStatus?.(next);
    shown = line;
  };
  try {
    show(task);
    while (!isTerminal(task.status)) {
      if (task.status === 'input_required') {
        if (client.choice.era === 'legacy') {
          // 2025-11-25: tasks/result carries the server's requests (elicitation) and ends with the result.
          const result = await taskResult(client, task, { signal: requestSignal(stop.signal), timeout: requestTime() });
          task = { ...task, status: result?.isError ? 'failed' : 'completed' };
          show(task);
          return endOf(task, result);
        }
        await answerInput(client, task, answered, options, requestSignal(stop.signal), requestTime());
      }
      await sleep(Math.min(pollIntervalOf(task), remaining()), requestSignal(stop.signal));
      task = await getTask(client, task.taskId, { signal: requestSignal(stop.signal), timeout: requestTime() });
      show(task);
    }
    const result = task.status === 'cancelled' ? undefined : await taskResult(client, task, { signal: requestSignal(stop.signal), timeout: requestTime() }).catch(() => undefined);
    return endOf(task, result);
  } catch (error) {
    if (!stop.signal.aborted) {
      // The follower gives up (the server stopped answering, or asked what toolrun cannot give): the
      // task must not go on running unattended.
      if (!isTerminal(task.status)) await Promise.race([cancel(), sleep(CANCEL_WAIT_MS)]);
      throw error;
    }
    const reason = stop.signal.reason as unknown;
    if (reason instanceof TaskDeadlineError) throw new TaskDeadlineError(task, options.timeoutMs, await cancel());
    await Promise.race([cancel(), sleep(CANCEL_WAIT_MS)]);
    throw reason;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The tool result of an ended task, or the error that says how it ended. */
function endOf(task: TaskState, result: CallToolResult | undefined): CallToolResult {
  if (task.status === 'completed' && result && !result.isError) return result;
  if (task.status === 'cancelled') throw new ToolrunError('tool_error', `task ${task.taskId} was cancelled on the server${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
  const resultText = (result?.content ?? [])
    .filter((item) => item.type === 'text')
    .map((item) => (item as { text: string }).text)
    .join(' ');
  const reason = task.statusMessage ?? task.error?.message ?? (resultText || 'no reason given');
  throw new ToolReportedError(`task ${task.taskId} failed: ${reason}`, result ?? task.error);
}

async function answerInput(client: TaskClient, task: TaskState, answered: Set<string>, options: FollowTaskOptions, signal: AbortSignal, timeout: number): Promise<void> {
  const pending = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key)));
  if (Object.keys(pending).length === 0) return;
  if (!options.answerInputRequests) {
    throw new ToolrunError('tool_error', `task ${task.taskId} needs input toolrun cannot give here (${Object.keys(pending).join(', ')})`);
  }
  const responses = await options.answerInputRequests(pending, signal);
  for (const key of Object.keys(responses)) answered.add(key);
  await updateTask(client, task.taskId, responses, { signal, timeout });
}

function pollIntervalOf(task: TaskState): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollIntervalMs ?? DEFAULT_POLL_MS));
}

/**
 * A signal for one request or wait of the loop, following the follower's: the SDK leaves its abort
 * listener on the signal it is given, and a task polled past ten times would pile them on one
 * signal (Node's MaxListenersExceededWarning on stderr). A derived signal goes with its request.
 */
function requestSignal(stop: AbortSignal): AbortSignal {
  return AbortSignal.any([stop]);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
