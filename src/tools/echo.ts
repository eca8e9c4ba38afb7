import type { ToolDefinition } from '../registry/tool-types.js';

export const echoDefinition: ToolDefinition = {
  name: 'echo',
  description: 'Returns the arguments it was given, as {echo: <arguments>}. Useful for testing argument parsing.',
  parameters: { type: 'object', properties: {}, additionalProperties: true },
};

export async function echo(args: Record<string, unknown>): Promise<{ echo: Record<string, unknown> }> {
  return { echo: args };
}
