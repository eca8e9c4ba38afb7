import type { TaskCallOptions } from '../registry/tool-types.js';
import { describeTaskStatus } from '../mcp/tasks/task-state.js';
import { oneLine } from '../output/escape-controls.js';
import { answerInputRequestsWith } from './answer-input-requests.js';
import { askBackFor } from './ask-back-for.js';
import type { CliContext } from './cli-context.js';

/**
 * A call that runs as a task (SPEC §15): each change of its status is one stderr line, on a
 * terminal or not (a task may run for minutes: a script's log should show where it stands).
 */
export function taskOptionsFor(cli: CliContext, toolName: string, flags: { task?: boolean; wait?: boolean }, server?: string): TaskCallOptions {
  return {
    // 2026-07-28: a task waiting for input is answered as the command answers elicitations.
    ...(server && { answerInputRequests: answerInputRequestsWith(askBackFor(cli), server) }),
    asTask: flags.task === true,
    wait: flags.wait !== false,
    // One line per change, whatever line breaks the server put in its id or status message.
    onStatus: (task) => cli.terminal.info(`… ${toolName}: task ${oneLine(`${task.taskId} ${describeTaskStatus(task)}`)}`),
  };
}
