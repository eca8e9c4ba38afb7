import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { citeSpec, SPEC_SECTION, type SpecSection } from '../protocol/spec-sections.js';
import { checkSchema } from '../schema/compile-schema.js';
import type { BrokenTool } from './list-tools.js';

export interface ToolDefinitionFinding {
  server: string;
  tool: string;
  severity: 'error' | 'warning';
  message: string;
  /** The spec section the rule comes from (`MCP 2025-11-25 server/tools § Tool Names`); none for toolrun's own advice. */
  spec?: string;
}

/** A finding as one line: `✖ tool: message (MCP 2025-11-25 server/tools § Tool Names)`. */
export function formatToolFinding(finding: ToolDefinitionFinding): string {
  return `${finding.severity === 'error' ? '✖' : '⚠'} ${finding.tool}: ${finding.message}${finding.spec ? ` (${finding.spec})` : ''}`;
}

/**
 * Checks a server's tool definitions as a client would rely on them: the input schema is valid JSON
 * Schema and compiles, an outputSchema (when given) is an object schema that compiles, the name
 * follows the MCP naming rules, names are unique, a description is there (toolrun's advice: models
 * pick tools by it). Each spec rule's finding cites its section.
 */
export function checkMcpTools(server: string, tools: Tool[], broken: BrokenTool[] = []): ToolDefinitionFinding[] {
  const findings: ToolDefinitionFinding[] = broken.map((tool) => ({
    server,
    tool: tool.name,
    severity: 'error',
    message: `${tool.problem}; the tool is left out (its other tools work)`,
    spec: tool.spec ?? citeSpec(/outputSchema/.test(tool.problem) ? SPEC_SECTION.outputSchema : SPEC_SECTION.tool),
  }));
  const seen = new Set<string>();
  for (const tool of tools) {
    const add = (severity: ToolDefinitionFinding['severity'], message: string, section?: SpecSection) =>
      findings.push({ server, tool: tool.name, severity, message, ...(section && { spec: citeSpec(section) }) });
    const naming = validateToolName(tool.name);
    if (!naming.isValid) add('error', `name does not follow the MCP naming rules: ${naming.warnings.join('; ')}`, SPEC_SECTION.toolNames);
    else for (const warning of naming.warnings) add('warning', `name: ${warning}`, SPEC_SECTION.toolNames);
    if (seen.has(tool.name)) add('error', 'the server lists this name twice (names are unique within a server)', SPEC_SECTION.toolNames);
    seen.add(tool.name);
    const schemaProblem = checkSchema(tool.inputSchema);
    if (schemaProblem) add('error', `inputSchema is not valid JSON Schema: ${schemaProblem}`, SPEC_SECTION.tool);
    else if ((tool.inputSchema as { type?: unknown }).type !== 'object') add('error', 'inputSchema must have "type": "object"', SPEC_SECTION.tool);
    if (tool.outputSchema !== undefined) {
      const outputProblem = checkSchema(tool.outputSchema);
      if (outputProblem) add('error', `outputSchema is not valid JSON Schema: ${outputProblem}`, SPEC_SECTION.outputSchema);
      else if ((tool.outputSchema as { type?: unknown }).type !== 'object') add('error', 'outputSchema must have "type": "object" (structuredContent is an object)', SPEC_SECTION.outputSchema);
    }
    if (!tool.description?.trim()) add('warning', 'no description: models choose tools by their description');
  }
  return findings;
}
