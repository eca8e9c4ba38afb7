import type { ArgsValidator } from '../schema/args-validator.js';
export type { ArgsValidator } from '../schema/args-validator.js';

/** Where a tool comes from; MCP tools also carry their server's name. */
export type ToolSource = 'builtin' | 'mock' | 'internal' | 'mcp';

export type JsonSchemaObject = Record<string, unknown>;

/** A tool as a model sees it: seed 000's "unique name, human-readable description, JSON schema". */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

export interface ToolCallContext {
  /**
   * Aborted when the user interrupts and, for tools without enforcesTimeout, at the deadline;
   * tools that can cancel should. Absent when nothing can abort the call.
   */
  signal?: AbortSignal;
  /** The time this call is allowed, for tools that run elsewhere and must be told. */
  timeoutMs: number;
  /** Progress the tool reports while it runs (MCP `notifications/progress`). */
  onProgress?: ProgressHandler;
  /** MCP calls that run as tasks (SPEC §15): how to drive them. */
  task?: TaskCallOptions;
}

/**
 * How an MCP call that runs as a task is driven (SPEC §15): followed to its end by default;
 * `wait: false` ends once the task exists (its id is the result); `asTask` asks a tool whose
 * task support is optional to run as one.
 */
export interface TaskCallOptions {
  asTask?: boolean;
  wait?: boolean;
  /** Each change of the task's status or status message. */
  onStatus?: (task: { taskId: string; status: string; statusMessage?: string }) => void;
  /** 2026-07-28: answers to an input_required task's inputRequests (keyed as asked). */
  answerInputRequests?: (inputRequests: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;
}

/** One progress update of a running call: `progress` of `total` (when known), and what it is doing. */
export type ProgressHandler = (update: { progress: number; total?: number; message?: string }) => void;

/** Runs a tool: receives the arguments object, resolves to the result (any JSON-able value). */
export type ToolRunner = (args: Record<string, unknown>, context: ToolCallContext) => Promise<unknown>;

export interface RegisteredTool {
  definition: ToolDefinition;
  run: ToolRunner;
  source: ToolSource;
  /** MCP tools: the server's name. */
  server?: string;
  /** `server:tool` for MCP tools, the plain name otherwise. */
  qualifiedName: string;
  /** Argument names are normalized (paramMappings, snake→camel) only for MCP tools (seed 000). */
  normalizesArgs: boolean;
  /** Starts whatever the tool runs in (a worker thread) ahead of the call; called once it is looked up. */
  warmUp?: () => void;
  /** A precompiled argument validator (builtins); others are compiled from the schema on first use. */
  validator?: ArgsValidator;
  /** MCP tools: the LangChain tool @langchain/mcp-adapters made of it, for LangChain agents. */
  langChainTool?: LangChainToolLike;
  /**
   * The runner enforces `context.timeoutMs` itself and throws ToolTimeoutError (MCP: the SDK's own
   * request timeout, which also cancels on the server), so the executor adds no timer of its own.
   */
  enforcesTimeout?: boolean;
}

/** Checks arguments against a tool's schema; Ajv's errors when they fail. */

export type DefinitionFormat = 'plain' | 'anthropic' | 'openai';

export interface RegisterOptions {
  source?: ToolSource;
  server?: string;
  /**
   * Check that `parameters` is valid JSON Schema now (the default). Builtins skip it: they are tested,
   * and meta-validation costs ~25 ms of every process's startup.
   */
  checkSchema?: boolean;
  warmUp?: () => void;
  validator?: ArgsValidator;
  enforcesTimeout?: boolean;
}

export interface LangChainRegisterOptions extends RegisterOptions {
  /** Use this schema instead of the tool's own (MCP: the server's schema, not LangChain's simplified copy). */
  parameters?: JsonSchemaObject;
  /** Run the tool this way instead of through `tool.invoke`. */
  run?: ToolRunner;
}

/**
 * The part of a LangChain StructuredTool toolrun uses. Duck-typed so the registry does not load
 * @langchain/core unless a tool actually comes from it.
 */
export interface LangChainToolLike {
  name: string;
  description?: string;
  /** JSON Schema, or a Zod schema (converted with @langchain/core's toJsonSchema). */
  schema?: unknown;
  invoke(input: Record<string, unknown>, config?: { signal?: AbortSignal; timeout?: number }): Promise<unknown>;
}
