import type { DefinitionFormat, ToolDefinition } from './tool-types.js';

export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export type FormattedDefinition = ToolDefinition | AnthropicToolDefinition | OpenAiToolDefinition;

/** A definition exactly as the Anthropic Messages API or OpenAI Chat Completions API takes it. */
export function formatDefinition(definition: ToolDefinition, format: DefinitionFormat): FormattedDefinition {
  const { name, description, parameters } = definition;
  switch (format) {
    case 'anthropic':
      return { name, description, input_schema: parameters };
    case 'openai':
      return { type: 'function', function: { name, description, parameters } };
    default:
      return { name, description, parameters };
  }
}
