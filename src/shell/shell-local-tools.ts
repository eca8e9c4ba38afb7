import { parseArgWords } from '../args/parse-tool-args.js';
import { createRegistry } from '../assembly/create-registry.js';
import type { Registry } from '../assembly/server-status.js';
import type { CliContext } from '../cli-support/cli-context.js';
import { printExecOutcome, shapeOutcome } from '../cli-support/exec-output.js';
import { mergeArguments } from '../cli-support/tool-arguments.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import type { Terminal } from '../output/terminal.js';
import type { CompletableTool } from './complete-shell-line.js';

/** The pseudo server name local tools carry for Tab (never sent anywhere). */
export const LOCAL_SERVER = 'local';

/**
 * The registry's local tools (builtins and the config's), run in the shell's own process as
 * `toolrun exec` runs them (its cwd, its env): the holder serves MCP servers only, so without this
 * a shell could not run `math_eval` that exec runs. Made on first use, ended when the shell exits.
 */
export class ShellLocalTools {
  #opened: Promise<{ registry: Registry; executor: ToolExecutor }> | undefined;

  constructor(
    readonly cli: CliContext,
    readonly config: ToolrunConfig,
  ) {}

  async tools(): Promise<Array<CompletableTool & { description: string }>> {
    const { registry } = await this.#open();
    return registry.list().map((tool) => ({
      server: LOCAL_SERVER,
      name: tool.definition.name,
      description: tool.definition.description,
      inputSchema: tool.definition.parameters as CompletableTool['inputSchema'],
    }));
  }

  async has(name: string): Promise<boolean> {
    return (await this.#open()).registry.find(name) !== undefined;
  }

  /** `TOOL key=value…` for a local tool, printed as exec prints it. */
  async call(words: string[], options: { terminal: Terminal; json: boolean; signal: AbortSignal }): Promise<number> {
    const { registry, executor } = await this.#open();
    const tool = registry.get(words[0]!);
    const args = mergeArguments(tool, parseArgWords(words.slice(1)), {}, this.config.paramMappings);
    const envelope = await executor.execute(tool.qualifiedName, args, { validate: true, signal: options.signal, raw: true });
    return printExecOutcome(options.terminal, options.json, await shapeOutcome(envelope, {}), {});
  }

  #open(): Promise<{ registry: Registry; executor: ToolExecutor }> {
    this.#opened ??= (async () => {
      const registry = await createRegistry(this.config, { logger: this.cli.terminal, servers: 'none' });
      this.cli.onExit(() => registry.close());
      const executor = new ToolExecutor(registry, {
        timeoutMs: this.cli.globals.timeout ?? this.config.timeoutMs,
        slowToolMs: this.config.slowToolMs,
        paramMappings: this.config.paramMappings,
        logger: this.cli.terminal,
      });
      return { registry, executor };
    })();
    return this.#opened;
  }
}
