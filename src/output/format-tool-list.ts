import { escapeTableCell } from './escape-controls.js';
import type { RegisteredTool } from '../registry/tool-types.js';

export interface ToolListRow {
  name: string;
  source: string;
  parameters: string;
  description: string;
}

/** One row per tool for the `list` table; required parameters carry a `*`. */
export function toToolListRow(tool: RegisteredTool, callName: string): ToolListRow {
  const schema = tool.definition.parameters;
  const properties = Object.entries((schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>);
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parameters = properties.map(([name, property]) => `${name}${required.has(name) ? '*' : ''}: ${describeType(property)}`).join(', ');
  return { name: callName, source: tool.server ? `mcp:${tool.server}` : tool.source, parameters: parameters || '-', description: firstLine(tool.definition.description) };
}

function describeType(property: { type?: unknown; enum?: unknown[] }): string {
  if (Array.isArray(property?.enum)) return property.enum.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join('|');
  if (Array.isArray(property?.type)) return property.type.join('|');
  return typeof property?.type === 'string' ? property.type : 'any';
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/**
 * A plain aligned table. On a terminal the description is cut to the width; piped, nothing is
 * cut (a script may grep it).
 */
export function formatTable(headers: string[], cells: string[][], maxWidth: number | undefined): string {
  const rows = cells.map((row) => row.map(escapeTableCell));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const render = (cells: string[]) => {
    const line = cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
    return maxWidth && line.length > maxWidth ? `${line.slice(0, maxWidth - 1)}…` : line;
  };
  return [render(headers), ...rows.map(render)].join('\n');
}
