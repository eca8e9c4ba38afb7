/**
 * toolrun as a library: the same engine as the CLI, for AI clients that run tool calls
 * (seed 000 "AI Client Integration").
 *
 * @example
 * const config = await loadConfig();
 * const registry = await createRegistry(config);
 * const executor = new ToolExecutor(registry);
 * const tools = registry.getDefinitions('anthropic');
 * const envelope = await executor.execute('math_eval', { expression: '2+2' });
 * await registry.close();
 */
export { loadConfig, type LoadConfigOptions } from './config/load-config.js';
export type { ToolrunConfig, ConfiguredTool, RetryPolicy } from './config/config-types.js';
export { createRegistry, type CreateRegistryOptions } from './assembly/create-registry.js';
export type { AskBack, AskContext, ClientRoot, ElicitParams, SamplingParams } from './mcp/ask-back.js';
export { ToolRegistry } from './registry/tool-registry.js';
export type { ToolDefinition, ToolRunner, ToolSource, RegisteredTool, DefinitionFormat, ToolCallContext } from './registry/tool-types.js';
export type { AnthropicToolDefinition, OpenAiToolDefinition } from './registry/definition-formats.js';
export type { LangChainToolLike } from './registry/tool-types.js';
export type { Registry, ServerStatus } from './assembly/server-status.js';
export { ToolExecutor, type ToolExecutorOptions, type ExecuteOptions, type ExecutorLogger } from './executor/tool-executor.js';
export type { ToolEnvelope, SuccessEnvelope, FailureEnvelope } from './executor/envelope.js';
export { ToolrunError, ConfigError, UsageError, ToolNotFoundError, ExitCode } from './errors.js';
export { runCli } from './cli.js';
