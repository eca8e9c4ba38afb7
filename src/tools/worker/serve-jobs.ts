/**
 * The message loop of a tool worker thread. Tools run off the main thread so that a CPU-bound or
 * runaway tool can be stopped at its timeout (Worker.terminate interrupts running JS), and an
 * out-of-memory expression kills the thread, not toolrun.
 */
import { parentPort } from 'node:worker_threads';
import { describeThrown } from '../../errors.js';
import type { WorkerJob, WorkerRequest, WorkerResponse } from './worker-protocol.js';

export function serveJobs<K extends WorkerJob['kind']>(runJob: (job: Extract<WorkerJob, { kind: K }>) => Promise<unknown>): void {
  const port = parentPort!;
  port.on('message', async (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      const value = await runJob(request as unknown as Extract<WorkerJob, { kind: K }>);
      // A cycle survives postMessage but not the JSON toolrun prints: refuse it here, as a tool error.
      assertPrintable(value);
      response = { id: request.id, ok: true, value };
    } catch (error) {
      response = { id: request.id, ok: false, error: { name: error instanceof Error ? error.name : 'Error', message: describeThrown(error) } };
    }
    try {
      port.postMessage(response);
    } catch (error) {
      // Functions, symbols and the like cannot leave the thread (nor be printed as JSON).
      port.postMessage({
        id: request.id,
        ok: false,
        error: { name: 'DataCloneError', message: `the tool returned a value that cannot be serialized: ${(error as Error).message}` },
      } satisfies WorkerResponse);
    }
  });
}

function assertPrintable(value: unknown): void {
  try {
    JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));
  } catch (error) {
    throw Object.assign(new Error(`the tool returned a value that cannot be serialized: ${(error as Error).message.split('\n')[0]}`), { name: 'DataCloneError' });
  }
}
