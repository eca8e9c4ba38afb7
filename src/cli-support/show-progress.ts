import type { ProgressHandler } from '../registry/tool-types.js';
import { oneLine } from '../output/escape-controls.js';
import type { Spinner } from '../output/terminal.js';
import type { CliContext } from './cli-context.js';

export interface CallProgress {
  onProgress: ProgressHandler;
  stop(): void;
}

/**
 * Progress of one call (SPEC §10): a spinner line on a TTY, started at the first update and cleared
 * when the call ends; one stderr line per update with --verbose; nothing otherwise.
 */
export async function showProgress(cli: CliContext, toolName: string): Promise<CallProgress> {
  let spinner: Promise<Spinner | undefined> | undefined;
  let stopped = false;
  const describe = ({ progress, total, message }: Parameters<ProgressHandler>[0]) => {
    const amount = total ? `${progress}/${total}${total > 0 ? ` (${Math.round((progress / total) * 100)}%)` : ''}` : String(progress);
    return `${toolName}: ${amount}${message ? ` ${oneLine(message)}` : ''}`;
  };
  return {
    onProgress: (update) => {
      if (stopped) return;
      const text = describe(update);
      cli.terminal.verbose(`progress ${text}`);
      if (cli.globals.verbose) return;
      spinner ??= cli.terminal.startSpinner(text);
      void spinner.then((live) => (stopped ? live?.stop() : live?.update(text)));
    },
    stop: () => {
      stopped = true;
      void spinner?.then((live) => live?.stop());
    },
  };
}
