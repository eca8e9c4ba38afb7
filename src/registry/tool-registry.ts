import { ToolNotFoundError, ToolrunError } from '../errors.js';
import { formatDefinition, type FormattedDefinition } from './definition-formats.js';
import { toApiNames } from './api-names.js';
import { checkProviderLimits } from './provider-limits.js';
import { suggestNames } from './suggest-names.js';
import type { DefinitionFormat, LangChainRegisterOptions, LangChainToolLike, RegisterOptions, RegisteredTool, ToolDefinition, ToolRunner } from './tool-types.js';
import { toLangChainRegistration } from './langchain-tool.js';

export interface RegistryLogger {
  warn(message: string): void;
}

export type SchemaChecker = (schema: unknown) => string | undefined;

/**
 * All tools toolrun knows, local and discovered (seed 000 "Tool Registry"). A name registered twice
 * warns and the later registration wins, except that an MCP tool never takes a local tool's plain
 * name; MCP tools stay reachable by `server:tool` whatever shadows them. `Server` is what the
 * registry keeps of the servers its tools came from: whoever connects them decides (assembly/).
 */
export class ToolRegistry<Server = unknown> {
  readonly #byName = new Map<string, RegisteredTool>();
  readonly #byQualifiedName = new Map<string, RegisteredTool>();
  readonly #logger: RegistryLogger;
  readonly #checkSchema: SchemaChecker | undefined;
  readonly #closers: Array<() => Promise<void>> = [];
  /** API-valid names (`everything__echo`) of the tools whose call names are not, built when first asked for. */
  #byApiName: Map<string, RegisteredTool> | undefined;
  /** While registerAll runs: the replacements to warn about once, summed up per origin. */
  #replacements: Array<{ tool: RegisteredTool; previous: RegisteredTool }> | undefined;
  /** The MCP servers asked for so far: connected or failed. */
  readonly servers = new Map<string, Server>();

  constructor(options: { logger?: RegistryLogger; checkSchema?: SchemaChecker } = {}) {
    this.#logger = options.logger ?? { warn: () => {} };
    this.#checkSchema = options.checkSchema;
  }

  /** Registers a tool; throws ToolrunError('config') when the definition is unusable. */
  registerTool(definition: ToolDefinition, run: ToolRunner, options: RegisterOptions = {}): RegisteredTool {
    const source = options.source ?? 'internal';
    assertDefinition(definition, options.checkSchema === false ? undefined : this.#checkSchema);
    const qualifiedName = options.server ? `${options.server}:${definition.name}` : definition.name;
    const tool: RegisteredTool = {
      definition,
      run,
      source,
      server: options.server,
      qualifiedName,
      normalizesArgs: source === 'mcp',
      warmUp: options.warmUp,
      validator: options.validator,
      enforcesTimeout: options.enforcesTimeout,
    };
    if (options.server) this.#byQualifiedName.set(qualifiedName, tool);
    this.#byApiName = undefined;
    const previous = this.#byName.get(definition.name);
    // A local tool keeps its plain name over an MCP tool: running a local tool must never need a
    // server started to find out whether one shadows it. The MCP tool answers to server:tool.
    if (previous && options.server && !previous.server) return tool;
    if (previous && this.#replacements) this.#replacements.push({ tool, previous });
    else if (previous) this.#logger.warn(describeReplacement(tool, previous));
    this.#byName.set(definition.name, tool);
    return tool;
  }

  /**
   * Runs a batch of registrations (one server's tools) and warns about the names they take once per
   * origin, not once per tool: two copies of a 70-tool server give one line, not 70 (SPEC §9 noise).
   */
  registerAll(register: () => void): void {
    const replacements: Array<{ tool: RegisteredTool; previous: RegisteredTool }> = [];
    this.#replacements = replacements;
    try {
      register();
    } finally {
      this.#replacements = undefined;
    }
    const byOrigin = new Map<string, typeof replacements>();
    for (const replacement of replacements) {
      const key = `${describeOrigin(replacement.tool)}\0${describeOrigin(replacement.previous)}`;
      byOrigin.set(key, [...(byOrigin.get(key) ?? []), replacement]);
    }
    for (const group of byOrigin.values()) {
      const [{ tool, previous }] = group as [(typeof group)[number]];
      if (group.length === 1) {
        this.#logger.warn(describeReplacement(tool, previous));
        continue;
      }
      const names = group
        .slice(0, 3)
        .map((replacement) => replacement.tool.definition.name)
        .join(', ');
      const more = group.length > 3 ? `, … ${group.length - 3} more` : '';
      const reachable = previous.server ? `; those stay reachable as ${previous.server}:NAME` : '';
      this.#logger.warn(`${group.length} tools from ${describeOrigin(tool)} replace the ones of the same names from ${describeOrigin(previous)} (${names}${more}${reachable})`);
    }
  }

  /** Registers a LangChain structured tool (seed 001): name from `tool.name`, its schema and bound invoke. */
  registerLangChainTool(tool: LangChainToolLike, options: LangChainRegisterOptions = {}): RegisteredTool {
    const { parameters, run: runOverride, ...rest } = options;
    const adapted = toLangChainRegistration(tool, parameters);
    const registered = this.registerTool(adapted.definition, runOverride ?? adapted.run, { source: 'mcp', ...rest });
    registered.langChainTool = tool;
    return registered;
  }

  /**
   * The tool for a name, `server:tool`, the API name a model was given (`server__tool`, see
   * apiNames), or a name restricted to one server; undefined when none.
   */
  find(name: string, server?: string): RegisteredTool | undefined {
    if (server) return this.#byQualifiedName.get(`${server}:${name}`);
    return this.#byName.get(name) ?? this.#byQualifiedName.get(name) ?? this.#apiNameIndex().get(name);
  }

  /** The name each tool is offered to a model API by: its call name when valid there, else `server__tool` (api-names.ts). */
  apiNames(): Map<RegisteredTool, string> {
    return toApiNames([...this.callNames()]);
  }

  #apiNameIndex(): Map<string, RegisteredTool> {
    this.#byApiName ??= new Map([...this.apiNames()].map(([tool, name]) => [name, tool]));
    return this.#byApiName;
  }

  /** Like find, but throws ToolNotFoundError with the closest names; starts the tool's worker early. */
  get(name: string, server?: string): RegisteredTool {
    const tool = this.find(name, server);
    if (tool) {
      tool.warmUp?.();
      return tool;
    }
    const candidates = server ? [...this.#byQualifiedName.values()].filter((t) => t.server === server).map((t) => t.definition.name) : this.names();
    const label = server ? `${server}:${name}` : name;
    throw new ToolNotFoundError(label, suggestNames(name, candidates));
  }

  /** Every reachable tool once: shadowed MCP tools are included under their qualified names. */
  list(): RegisteredTool[] {
    const visible = new Set(this.#byName.values());
    const shadowed = [...this.#byQualifiedName.values()].filter((tool) => !visible.has(tool));
    return [...visible, ...shadowed];
  }

  /** The names a tool can be called by (shadowed MCP tools by `server:tool`). */
  names(): string[] {
    return this.list().map((tool) => (this.#byName.get(tool.definition.name) === tool ? tool.definition.name : tool.qualifiedName));
  }

  /** Is this name offered by more than one source? Such tools are listed with qualified names. */
  isAmbiguous(name: string): boolean {
    return this.list().filter((tool) => tool.definition.name === name).length > 1;
  }

  /**
   * The name each tool is listed and called by, for all tools in one pass (list stays linear: 10,000
   * tools, SPEC §8): the plain name when it is the tool's alone, else `server:tool`.
   */
  callNames(): Map<RegisteredTool, string> {
    const tools = this.list();
    const sources = new Map<string, number>();
    for (const tool of tools) sources.set(tool.definition.name, (sources.get(tool.definition.name) ?? 0) + 1);
    return new Map(tools.map((tool) => [tool, this.#byName.get(tool.definition.name) === tool && sources.get(tool.definition.name) === 1 ? tool.definition.name : tool.qualifiedName]));
  }

  /**
   * Definitions in plain, Anthropic or OpenAI shape (seed 000 "Get tool definition"). The provider
   * shapes hold every reachable tool under its API name (a shadowed MCP tool as `server__tool`),
   * which execute() and find() map back; plain keeps the plain names.
   */
  getDefinitions(format: DefinitionFormat = 'plain'): FormattedDefinition[] {
    if (format === 'plain') return [...this.#byName.values()].map((tool) => formatDefinition(tool.definition, format));
    const named = [...this.apiNames()].map(([tool, name]) => ({ ...tool.definition, name }));
    for (const warning of checkProviderLimits(format, named)) this.#logger.warn(warning);
    return named.map((definition) => formatDefinition(definition, format));
  }

  /** Seed 000's lookup of the executor function for a name. */
  getExecutor(name: string): ToolRunner | undefined {
    return this.find(name)?.run;
  }

  get size(): number {
    return this.#byName.size;
  }

  /** Adds cleanup for resources the tools hold (worker threads, MCP server processes). */
  onClose(closer: () => Promise<void>): void {
    this.#closers.push(closer);
  }

  /** Ends every worker and server the tools started; safe to call more than once. */
  async close(): Promise<void> {
    const closers = this.#closers.splice(0);
    await Promise.allSettled(closers.map((closer) => closer()));
    this.servers.clear();
  }
}

function describeReplacement(tool: RegisteredTool, previous: RegisteredTool): string {
  return `Tool '${tool.definition.name}' from ${describeOrigin(tool)} replaces the one from ${describeOrigin(previous)}${previous.server ? ` (that one stays reachable as ${previous.qualifiedName})` : ''}`;
}

function describeOrigin(tool: RegisteredTool): string {
  return tool.server ? `MCP server '${tool.server}'` : `${tool.source} tools`;
}

function assertDefinition(definition: ToolDefinition, checkSchema: SchemaChecker | undefined): void {
  const label = typeof definition?.name === 'string' && definition.name ? `Tool '${definition.name}'` : 'Tool definition';
  if (typeof definition?.name !== 'string' || definition.name.trim() === '') throw new ToolrunError('config', `${label}: name must be a non-empty string`);
  if (typeof definition.description !== 'string') throw new ToolrunError('config', `${label}: description must be a string`);
  const parameters = definition.parameters;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) throw new ToolrunError('config', `${label}: parameters must be a JSON Schema object`);
  const problem = checkSchema?.(parameters);
  if (problem) throw new ToolrunError('config', `${label}: parameters is not valid JSON Schema: ${problem}`);
}
