import { describeThrown, ToolrunError, type ErrorKind } from '../errors.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ArgsValidator, ProgressHandler, RegisteredTool, TaskCallOptions } from '../registry/tool-types.js';
import { formatValidationErrors, relevantErrors } from '../schema/format-validation-errors.js';
import { elapsedMs, type ToolEnvelope } from './envelope.js';
import { describeRenaming, normalizeArgs } from './normalize-args.js';
import { runWithTimeout, ToolTimeoutError } from './run-with-timeout.js';
import { ToolOutput, ToolReportedError } from './tool-output.js';

/** Where the executor reports; the CLI writes these to stderr, a library user may route them anywhere. */
export interface ExecutorLogger {
  warn(message: string): void;
  /** Notices a user should see, e.g. how arguments were renamed. */
  info(message: string): void;
  /** Per-call detail, shown with --verbose. */
  verbose(message: string): void;
}

export interface ToolExecutorOptions {
  /** Per-call deadline (SPEC §4: default 30 s). */
  timeoutMs?: number;
  /** Calls slower than this get a warning (default 1000 ms). */
  slowToolMs?: number;
  /** `paramMappings` of the config: tool name → {from: to}. */
  paramMappings?: Record<string, Record<string, string>>;
  logger?: ExecutorLogger;
}

export interface ExecuteOptions {
  /** Pick the tool of this MCP server. */
  server?: string;
  /** false: send arguments unchecked (`--no-validate`). */
  validate?: boolean;
  timeoutMs?: number;
  /** Aborts the call (Ctrl-C). */
  signal?: AbortSignal;
  /** MCP tools: `result` is the raw MCP result (content, structuredContent, isError), also on failure. */
  raw?: boolean;
  /** No per-call logging (slow-tool warning, --verbose line): `toolrun time`'s hot path. */
  silent?: boolean;
  /** Progress updates of the call (MCP tools report them). */
  onProgress?: ProgressHandler;
  /** MCP calls that run as tasks: how to drive them (SPEC §15). */
  task?: TaskCallOptions;
}

/** A tool with arguments that passed normalization and validation, ready to run repeatedly. */
export interface PreparedCall {
  tool: RegisteredTool;
  args: Record<string, unknown>;
}

const defaultLogger: ExecutorLogger = { warn: (message) => console.warn(message), info: () => {}, verbose: () => {} };

/**
 * Runs tools by name (seed 000 "Centralized Tool Execution"): lookup, MCP argument normalization,
 * JSON Schema validation, a deadline, timing, and one envelope shape for every outcome.
 */
export class ToolExecutor {
  readonly registry: ToolRegistry;
  readonly timeoutMs: number;
  readonly slowToolMs: number;
  readonly #paramMappings: Record<string, Record<string, string>>;
  readonly #logger: ExecutorLogger;
  readonly #validators = new WeakMap<RegisteredTool, ArgsValidator>();

  constructor(registry: ToolRegistry, options: ToolExecutorOptions = {}) {
    this.registry = registry;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.slowToolMs = options.slowToolMs ?? 1000;
    this.#paramMappings = options.paramMappings ?? {};
    this.#logger = options.logger ?? defaultLogger;
  }

  /** Looks up, validates and runs a tool. Never throws for the tool's failure: see the envelope's `error`. */
  async execute(name: string, args: Record<string, unknown> = {}, options: ExecuteOptions = {}): Promise<ToolEnvelope> {
    const startedAt = process.hrtime.bigint();
    let tool: RegisteredTool | undefined;
    try {
      tool = this.registry.get(name, options.server);
      const prepared = await this.prepare(tool, args, { validate: options.validate });
      return await this.#run(prepared, startedAt, options);
    } catch (error) {
      return this.#failure(name, tool, error, startedAt, options);
    }
  }

  /**
   * Normalizes (MCP tools) and validates arguments without running the tool; throws ToolrunError
   * ('invalid_args') with SPEC §4's message. `toolrun validate TOOL` and `toolrun time` use it.
   */
  async prepare(tool: RegisteredTool, args: Record<string, unknown>, options: { validate?: boolean } = {}): Promise<PreparedCall> {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ToolrunError('invalid_args', 'Invalid parameters: arguments must be an object');
    let finalArgs = args;
    if (tool.normalizesArgs) {
      const properties = new Set(Object.keys((tool.definition.parameters.properties as object | undefined) ?? {}));
      const mapping = this.#paramMappings[tool.definition.name];
      const normalized = normalizeArgs(args, properties, mapping);
      if (normalized.renamed.length > 0) this.#logger.info(`Normalized arguments of ${tool.definition.name}: ${describeRenaming(args, normalized.renamed)}`);
      finalArgs = normalized.args;
    }
    if (options.validate !== false) {
      const misspelt = findMisspeltArgument(finalArgs, tool.definition.parameters);
      if (misspelt) throw new ToolrunError('invalid_args', `Invalid parameters: unknown argument '${misspelt.given}' (did you mean '${misspelt.property}'?)`);
      const result = (await this.#validatorFor(tool))(finalArgs);
      // Extra properties alone do not fail (seed 004), so only the errors that count are checked.
      const errors = result.valid ? [] : relevantErrors(result.errors);
      if (errors.length > 0) throw new ToolrunError('invalid_args', formatValidationErrors(errors));
    }
    return { tool, args: finalArgs };
  }

  /** Runs an already prepared call: no lookup, normalization or validation (the `time` hot path). */
  async executePrepared(prepared: PreparedCall, options: ExecuteOptions = {}): Promise<ToolEnvelope> {
    const startedAt = process.hrtime.bigint();
    try {
      return await this.#run(prepared, startedAt, options);
    } catch (error) {
      return this.#failure(prepared.tool.definition.name, prepared.tool, error, startedAt, options);
    }
  }

  async #run({ tool, args }: PreparedCall, startedAt: bigint, options: ExecuteOptions): Promise<ToolEnvelope> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // A runner that enforces the deadline itself is called directly: no second timer on the hot path.
    const { onProgress, task } = options;
    const output = tool.enforcesTimeout
      ? await tool.run(args, { signal: options.signal, timeoutMs, onProgress, task })
      : await runWithTimeout((context) => tool.run(args, { ...context, onProgress, task }), timeoutMs, options.signal);
    const result = output instanceof ToolOutput ? (options.raw ? output.raw : output.value) : output;
    const envelope: ToolEnvelope = { success: true, result, tool_name: tool.definition.name, execution_time_ms: elapsedMs(startedAt), ...origin(tool) };
    if (!options.silent) this.#afterCall(envelope, args);
    return envelope;
  }

  #failure(name: string, tool: RegisteredTool | undefined, error: unknown, startedAt: bigint, options: ExecuteOptions = {}): ToolEnvelope {
    const envelope: ToolEnvelope = {
      success: false,
      error: describeFailure(error, tool?.definition.name ?? name),
      error_kind: kindOf(error),
      tool_name: tool?.definition.name ?? name,
      execution_time_ms: elapsedMs(startedAt),
      ...(tool ? origin(tool) : {}),
      ...(options.raw && error instanceof ToolReportedError ? { result: error.raw } : {}),
      ...(error instanceof ToolrunError && error.details.length > 0 ? { server_stderr: error.details } : {}),
    };
    if (!options.silent) this.#afterCall(envelope);
    return envelope;
  }

  #afterCall(envelope: ToolEnvelope, args?: Record<string, unknown>): void {
    const ms = envelope.execution_time_ms;
    if (ms > this.slowToolMs && envelope.success) this.#logger.warn(`Slow tool: ${envelope.tool_name} took ${Math.round(ms)} ms (slowToolMs: ${this.slowToolMs})`);
    const outcome = envelope.success ? 'ok' : `failed (${envelope.error_kind}): ${envelope.error}`;
    this.#logger.verbose(`exec ${envelope.tool_name}${args ? ` ${safeJson(args)}` : ''} → ${outcome} in ${ms} ms`);
  }

  async #validatorFor(tool: RegisteredTool): Promise<ArgsValidator> {
    let validator = tool.validator ?? this.#validators.get(tool);
    if (!validator) {
      // Ajv loads only for tools without a precompiled validator (not for the builtins).
      const { compileArgsValidator } = await import('../schema/compile-schema.js');
      try {
        validator = compileArgsValidator(tool.definition.parameters);
      } catch (error) {
        throw new ToolrunError('tool_error', `Tool '${tool.definition.name}' has an input schema that does not compile (${(error as Error).message}); --no-validate sends the call anyway`);
      }
      this.#validators.set(tool, validator);
    }
    return validator;
  }
}

/**
 * An argument the schema does not have, whose name differs from a property only by case, '_' or '-'
 * (`perPage` for `per_page`): extra properties are otherwise ignored, so the value would be lost silently.
 */
function findMisspeltArgument(args: Record<string, unknown>, schema: Record<string, unknown>): { given: string; property: string } | undefined {
  const properties = Object.keys((schema.properties as object | undefined) ?? {});
  if (properties.length === 0) return undefined;
  const known = new Set(properties);
  const fold = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  const byFolded = new Map(properties.map((name) => [fold(name), name]));
  for (const given of Object.keys(args)) {
    if (known.has(given)) continue;
    const property = byFolded.get(fold(given));
    if (property) return { given, property };
  }
  return undefined;
}

function origin(tool: RegisteredTool): { source: RegisteredTool['source']; server?: string } {
  return tool.server ? { source: tool.source, server: tool.server } : { source: tool.source };
}

function kindOf(error: unknown): ErrorKind {
  if (error instanceof ToolrunError) return error.kind;
  if (error instanceof ToolTimeoutError) return 'timeout';
  if ((error as Error)?.name === 'AbortError' || (error as { kind?: string })?.kind === 'interrupted') return 'interrupted';
  return 'tool_error';
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

function describeFailure(error: unknown, name: string): string {
  if (error instanceof ToolTimeoutError) return `Tool '${name}' timed out after ${error.timeoutMs} ms (raise it with --timeout or timeoutMs)`;
  const code = (error as NodeJS.ErrnoException)?.code ?? (error as { cause?: NodeJS.ErrnoException })?.cause?.code;
  const message = describeThrown(error);
  // Seed 000 "Network error": say the service is unavailable, keep the detail.
  if (code && NETWORK_CODES.has(code)) return `Service unavailable: ${message}`;
  return message;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));
  } catch {
    return String(value);
  }
}
