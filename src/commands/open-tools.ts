import type { ToolrunConfig } from '../config/config-types.js';
import type { ToolExecutor } from '../executor/tool-executor.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { CliContext } from './cli-context.js';

export interface OpenTools {
  config: ToolrunConfig;
  registry: ToolRegistry;
  executor: ToolExecutor;
}

/** Loads the config and builds the registry and executor for a command; their cleanup runs at exit. */
export async function openTools(cli: CliContext, options: { likelyTool?: string } = {}): Promise<OpenTools> {
  // math_eval's worker needs ~130 ms to load mathjs; started now, that overlaps loading the engine
  // and the config. Speculative: if the config replaces math_eval, the idle thread just ends at exit.
  const hosts = options.likelyTool === 'math_eval' ? await startMathWorkerEarly(cli) : undefined;
  // Loaded here, not at the top: `toolrun --help` and usage errors never pay for the engine.
  const { loadConfig, createRegistry, ToolExecutor } = await import('../engine.js');
  const config = await loadConfig({ configPath: cli.globals.config, env: cli.env, cwd: cli.cwd });
  const registry = await createRegistry(config, { logger: cli.terminal, hosts });
  cli.onExit(() => registry.close());
  const executor = new ToolExecutor(registry, {
    timeoutMs: cli.globals.timeout ?? config.timeoutMs,
    slowToolMs: config.slowToolMs,
    paramMappings: config.paramMappings,
    logger: cli.terminal,
  });
  return { config, registry, executor };
}

async function startMathWorkerEarly(cli: CliContext) {
  const { createToolHosts } = await import('../tools/tool-hosts.js');
  const hosts = createToolHosts();
  cli.onExit(() => hosts.close());
  hosts.math.warmUp();
  return hosts;
}
