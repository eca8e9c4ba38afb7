import type { DefinitionFormat } from './tool-types.js';

/**
 * Limits of the model APIs the provider formats are for, which a request beyond them fails on:
 * OpenAI takes at most 128 tools per request and function descriptions of up to 1024 characters.
 * (Names are made valid for both APIs by api-names.ts.)
 */
export const OPENAI_MAX_TOOLS = 128;
export const OPENAI_MAX_DESCRIPTION = 1024;

/** One line per limit the definitions go past, naming the limit and the tools; none when within. */
export function checkProviderLimits(format: DefinitionFormat, definitions: Array<{ name: string; description: string }>): string[] {
  if (format !== 'openai') return [];
  const warnings: string[] = [];
  if (definitions.length > OPENAI_MAX_TOOLS) warnings.push(`${definitions.length} tools: the OpenAI API takes at most ${OPENAI_MAX_TOOLS} tools in one request (choose with --server or --local)`);
  const long = definitions.filter((definition) => definition.description.length > OPENAI_MAX_DESCRIPTION);
  if (long.length > 0) {
    const named = long
      .slice(0, 5)
      .map((definition) => `${definition.name} (${definition.description.length})`)
      .join(', ');
    warnings.push(
      `${long.length} description${long.length === 1 ? '' : 's'} longer than ${OPENAI_MAX_DESCRIPTION} characters, the OpenAI limit: ${named}${long.length > 5 ? `, … ${long.length - 5} more` : ''}`,
    );
  }
  return warnings;
}
