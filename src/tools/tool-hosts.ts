import type { Writable } from 'node:stream';
import { WorkerHost } from './worker/worker-host.js';

/** The worker threads local tools run in; created lazily, closed once at the end of a run. */
export interface ToolHosts {
  math: WorkerHost;
  internal: WorkerHost;
  close(): Promise<void>;
}

// 512, not less: under ~300 MB V8 collects so eagerly that loading mathjs takes 20 ms longer (measured).
export const MATH_MEMORY_LIMIT_MB = 512;

export function createToolHosts(diagnostics?: Writable): ToolHosts {
  const math = new WorkerHost({ label: 'math_eval', kind: 'math', diagnostics, resourceLimits: { maxOldGenerationSizeMb: MATH_MEMORY_LIMIT_MB } });
  const internal = new WorkerHost({ label: 'internal tool', kind: 'internal', diagnostics });
  return {
    math,
    internal,
    close: async () => {
      await Promise.all([math.terminate(), internal.terminate()]);
    },
  };
}
