import type { ApiItem } from '../snapshot/snapshot-types.js';
import type { LintTarget, ServerTools, TokenReport, ToolTokens } from './lint-types.js';
import { ENCODING, type CountTokens } from './token-counter.js';
import { isSchemaObject } from './schema-walk.js';

/**
 * What each tool definition costs in the model's context: the definition as the target's API takes
 * it (OpenAI's function tool, Anthropic's tool, Gemini's function declaration), serialized as the
 * request sends it (compact JSON), counted with o200k_base. For OpenAI's models that is the count of
 * the text sent; Anthropic and Google publish no offline tokenizer, so for their formats the same
 * count is the stated estimate. A host also adds its own instructions around the tools: not counted.
 * The outputSchema is not part of any of these formats, so it costs nothing in the context.
 */
export async function countToolTokens(servers: ServerTools[], format: LintTarget['format'], count: CountTokens): Promise<TokenReport> {
  const entries: Array<{ server: string; tool: ApiItem; texts: string[]; parts: string[] }> = [];
  for (const { server, tools } of servers) {
    for (const tool of tools) {
      const { texts, parts } = definitionTexts(tool, format);
      entries.push({ server, tool, texts, parts });
    }
  }
  const counts = await count(entries.flatMap((entry) => entry.texts));
  let offset = 0;
  const tools: ToolTokens[] = entries.map((entry) => {
    const [whole, ...partCounts] = counts.slice(offset, (offset += entry.texts.length));
    const costliestIndex = partCounts.reduce((best, tokens, index) => (tokens > partCounts[best]! ? index : best), 0);
    return {
      server: entry.server,
      tool: String(entry.tool.name),
      tokens: whole!,
      costliest: partCounts.length > 0 ? { part: entry.parts[costliestIndex]!, tokens: partCounts[costliestIndex]! } : { part: 'name', tokens: whole! },
    };
  });
  const serverTotals = servers.map(({ server, tools: listed }) => ({
    server,
    tools: listed.length,
    tokens: tools.filter((tool) => tool.server === server).reduce((sum, tool) => sum + tool.tokens, 0),
  }));
  return {
    encoding: ENCODING,
    format,
    exact: format === 'openai',
    total: serverTotals.reduce((sum, server) => sum + server.tokens, 0),
    servers: serverTotals,
    tools: [...tools].sort((a, b) => b.tokens - a.tokens),
  };
}

/** The definition as the format sends it, then its parts (description, each parameter) to name the costliest. */
function definitionTexts(tool: ApiItem, format: LintTarget['format']): { texts: string[]; parts: string[] } {
  const name = String(tool.name);
  const description = typeof tool.description === 'string' ? tool.description : '';
  const schema = isSchemaObject(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} };
  const definition =
    format === 'openai'
      ? { type: 'function', function: { name, description, parameters: schema } }
      : format === 'anthropic'
        ? { name, description, input_schema: schema }
        : { name, description, parameters: schema };
  const texts = [JSON.stringify(definition)];
  const parts: string[] = [];
  if (description !== '') {
    texts.push(JSON.stringify(description));
    parts.push('description');
  }
  if (isSchemaObject(schema.properties)) {
    for (const [parameter, property] of Object.entries(schema.properties)) {
      texts.push(`${JSON.stringify(parameter)}:${JSON.stringify(property)}`);
      parts.push(`parameter '${parameter}'`);
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'type') continue;
    texts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
    parts.push(`inputSchema.${key}`);
  }
  return { texts, parts };
}
