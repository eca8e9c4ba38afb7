import { maskThenCut } from '../secrets/mask-secrets.js';
import { readElicitationUrl } from '../elicit/elicitation-url.js';

/** The 2025-11-25 error a server answers a request with when the person must first open a URL (URLElicitationRequiredError). */
export const URL_ELICITATION_REQUIRED = -32042;

/**
 * A call refused with -32042 (2025-11-25, URL-mode elicitation): the URLs the server wants opened,
 * with its messages, on one line, and what to do next. Undefined for any other error. (2026-07-28
 * has no such error: a URL rides an input_required round, answered as any elicitation.)
 */
export function describeUrlElicitationRequired(error: unknown, server: string, toolName: string): string | undefined {
  if ((error as { code?: unknown })?.code !== URL_ELICITATION_REQUIRED) return undefined;
  const data = (error as { data?: { elicitations?: unknown } }).data;
  const elicitations = Array.isArray(data?.elicitations) ? (data.elicitations as Array<{ url?: unknown; message?: unknown }>) : [];
  const urls = elicitations
    .filter((each) => typeof each.url === 'string')
    .map((each) => `${typeof each.message === 'string' ? `${JSON.stringify(maskThenCut(each.message, 200))}: ` : ''}${readElicitationUrl(each.url as string).shown}`);
  const what = urls.length > 0 ? urls.join('; ') : 'the server named no URL';
  return `MCP server '${server}' needs you to open a URL before '${toolName}' can run: ${what}; open it, then run the command again`;
}
