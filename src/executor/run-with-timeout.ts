import type { ToolCallContext } from '../registry/tool-types.js';
import { ToolrunError } from '../errors.js';

export class ToolTimeoutError extends ToolrunError {
  constructor(readonly timeoutMs: number) {
    super('timeout', `timed out after ${timeoutMs} ms`);
    this.name = 'ToolTimeoutError';
  }
}

/**
 * Runs `task` with a deadline. At the deadline the context's signal is aborted (worker threads are
 * terminated) and the promise rejects at once, without waiting for a tool that ignores the signal.
 * An outer signal (Ctrl-C) aborts the same way. MCP tools do not come here: the SDK's own request
 * timeout enforces their deadline (see mcp-tool-runner.ts).
 */
export async function runWithTimeout<T>(task: (context: ToolCallContext) => Promise<T>, timeoutMs: number, outerSignal?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuterAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ToolTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    if (outerSignal) {
      onOuterAbort = () => {
        controller.abort(outerSignal.reason);
        reject(outerSignal.reason);
      };
      if (outerSignal.aborted) onOuterAbort();
      else outerSignal.addEventListener('abort', onOuterAbort, { once: true });
    }
  });
  try {
    const running = Promise.resolve().then(() => task({ signal: controller.signal, timeoutMs }));
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) outerSignal?.removeEventListener('abort', onOuterAbort);
  }
}
