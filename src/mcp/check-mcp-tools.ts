import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { checkSchema } from '../schema/compile-schema.js';
import type { BrokenTool } from './list-tools.js';

export interface ToolDefinitionFinding {
  server: string;
  tool: string;
  severity: 'error' | 'warning';
  message: string;
}

/**
 * Checks a server's tool definitions as a client would rely on them: the input schema is valid JSON
 * Schema and compiles, the name follows the MCP naming rules, a description is there (models pick
 * tools by it), names are unique.
 */
export function checkMcpTools(server: string, tools: Tool[], broken: BrokenTool[] = []): ToolDefinitionFinding[] {
  const findings: ToolDefinitionFinding[] = broken.map((tool) => ({ server, tool: tool.name, severity: 'error', message: `${tool.problem}; the tool is left out (its other tools work)` }));
  const seen = new Set<string>();
  for (const tool of tools) {
    const add = (severity: ToolDefinitionFinding['severity'], message: string) => findings.push({ server, tool: tool.name, severity, message });
    const naming = validateToolName(tool.name);
    if (!naming.isValid) add('error', `name does not follow the MCP naming rules: ${naming.warnings.join('; ')}`);
    else for (const warning of naming.warnings) add('warning', `name: ${warning}`);
    if (seen.has(tool.name)) add('error', 'the server lists this name twice');
    seen.add(tool.name);
    const schemaProblem = checkSchema(tool.inputSchema);
    if (schemaProblem) add('error', `inputSchema is not valid JSON Schema: ${schemaProblem}`);
    else if ((tool.inputSchema as { type?: unknown }).type !== 'object') add('error', 'inputSchema must have "type": "object"');
    if (!tool.description?.trim()) add('warning', 'no description: models choose tools by their description');
  }
  return findings;
}
