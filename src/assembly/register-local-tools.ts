import type { ConfiguredTool } from '../config/config-types.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ToolRunner } from '../registry/tool-types.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { HandlerNotFoundError } from '../tools/internal-tool.js';
import type { ToolHosts } from '../tools/tool-hosts.js';

/** Registers the builtin tools, then the config's tools (a config tool of a builtin's name replaces it, with a warning). */
export function registerLocalTools(registry: ToolRegistry, tools: ConfiguredTool[], hosts: ToolHosts): void {
  for (const builtin of Object.values(BUILTIN_TOOLS)) {
    registry.registerTool(builtin.definition, builtin.createRunner(hosts), {
      source: 'builtin',
      checkSchema: false,
      validator: builtin.validator,
      warmUp: builtin.warmUp && (() => builtin.warmUp!(hosts)),
    });
  }
  for (const tool of tools) {
    const definition = { name: tool.name, description: tool.description, parameters: tool.parameters };
    registry.registerTool(definition, createConfiguredRunner(tool, hosts), { source: tool.implementation.type, warmUp: warmUpFor(tool, hosts) });
  }
}

function createConfiguredRunner(tool: ConfiguredTool, hosts: ToolHosts): ToolRunner {
  const implementation = tool.implementation;
  switch (implementation.type) {
    case 'mock': {
      const response = implementation.mock_response;
      // A copy per call, so a caller that mutates one result cannot change the next.
      return async () => structuredClone(response);
    }
    case 'builtin': {
      const builtin = BUILTIN_TOOLS[implementation.handler];
      if (!builtin)
        return async () => {
          throw new HandlerNotFoundError(`Builtin handler '${implementation.handler}' not found (builtin handlers: ${Object.keys(BUILTIN_TOOLS).join(', ')})`);
        };
      return builtin.createRunner(hosts);
    }
    case 'internal':
      return (args, context) => hosts.internal.run({ kind: 'internal', module: implementation.module, handler: implementation.handler, args }, context);
  }
}

function warmUpFor(tool: ConfiguredTool, hosts: ToolHosts): (() => void) | undefined {
  const implementation = tool.implementation;
  if (implementation.type === 'internal') return () => hosts.internal.warmUp();
  if (implementation.type === 'builtin') {
    const builtin = BUILTIN_TOOLS[implementation.handler];
    return builtin?.warmUp && (() => builtin.warmUp!(hosts));
  }
  return undefined;
}
