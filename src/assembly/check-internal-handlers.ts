import { existsSync } from 'node:fs';
import { describeThrown } from '../errors.js';
import { runWithTimeout } from '../executor/run-with-timeout.js';
import { createToolHosts } from '../tools/tool-hosts.js';
import type { ConfigProblem } from '../config/check-config.js';
import type { ToolrunConfig } from '../config/config-types.js';

const CHECK_TIMEOUT_MS = 10_000;

/**
 * For `toolrun validate`: loads each internal tool's module (in the tool worker, as a call would)
 * and checks that it exports the handler. This runs the module's top-level code, which any call
 * of the tool would run too.
 */
export async function checkInternalHandlers(config: ToolrunConfig): Promise<ConfigProblem[]> {
  const internal = config.tools.flatMap((tool, index) => (tool.implementation.type === 'internal' && existsSync(tool.implementation.module) ? [{ index, implementation: tool.implementation }] : []));
  if (internal.length === 0) return [];
  const hosts = createToolHosts();
  const problems: ConfigProblem[] = [];
  try {
    for (const { index, implementation } of internal) {
      try {
        await runWithTimeout(
          (context) => hosts.internal.run({ kind: 'internal', module: implementation.module, handler: implementation.handler, args: {}, checkOnly: true }, context),
          CHECK_TIMEOUT_MS,
        );
      } catch (error) {
        problems.push({ path: `tools[${index}].implementation.handler`, message: describeThrown(error) });
      }
    }
  } finally {
    await hosts.close();
  }
  return problems;
}
