import { createRequire } from 'node:module';
import type { JsonSchemaObject, LangChainToolLike, ToolDefinition, ToolRunner } from './tool-types.js';

/** Definition and runner for a LangChain tool (seed 001 "Register LangChain tool from MCP"). */
export function toLangChainRegistration(tool: LangChainToolLike, parameters?: JsonSchemaObject): { definition: ToolDefinition; run: ToolRunner } {
  const definition: ToolDefinition = {
    name: tool.name,
    description: tool.description ?? '',
    parameters: parameters ?? toJsonSchemaObject(tool.schema),
  };
  const run: ToolRunner = (args, context) => tool.invoke(args, { signal: context.signal });
  return { definition, run };
}

function toJsonSchemaObject(schema: unknown): JsonSchemaObject {
  if (schema === undefined || schema === null) return { type: 'object', properties: {} };
  if (typeof schema !== 'object') throw new TypeError('LangChain tool schema must be an object');
  if (isZodLike(schema)) {
    // Only Zod-schema tools pay for loading @langchain/core; MCP-discovered tools carry JSON Schema.
    const require = createRequire(import.meta.url);
    const { toJsonSchema } = require('@langchain/core/utils/json_schema') as { toJsonSchema(schema: unknown): JsonSchemaObject };
    return toJsonSchema(schema);
  }
  return schema as JsonSchemaObject;
}

function isZodLike(schema: object): boolean {
  return '_def' in schema || '_zod' in schema || '~standard' in schema;
}
