import { listAllPages } from '../../mcp/list-pages.js';
import { listItems } from '../../mcp/list-items.js';
import type { McpClient, McpRequestOptions } from '../../mcp/mcp-client.js';
import { APPS_EXTENSION, isRecord, uiUris, type AppsEvidence, type ReadOutcome } from './apps-wire.js';

/** More UI resources than this on one server are not read (each is a whole HTML document): said, never passed silently. */
export const MAX_UI_RESOURCES = 256;

function messageOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  // The SDKs' messages name the code already ("MCP error -32002: …").
  return typeof code === 'number' && !message.includes(String(code)) ? `${message} (${code})` : message;
}

/**
 * A connected server's Apps surface, asked once: its tools as listed (every page, `_meta` kept),
 * its resources, and resources/read of each ui:// URI the tools name. The rules judge this
 * evidence and never talk to the server (apps-rules.ts).
 */
export async function collectApps(server: string, client: McpClient, options: McpRequestOptions & { onNote?: (note: string) => void } = {}): Promise<AppsEvidence> {
  const tools = await listAllPages('tools/list', async (cursor) => {
    const page = await client.request('tools/list', cursor === undefined ? undefined : { cursor }, options);
    if (!Array.isArray(page.tools)) throw new Error('tools/list answered without a "tools" array');
    return { items: (page.tools as unknown[]).filter(isRecord), nextCursor: typeof page.nextCursor === 'string' ? page.nextCursor : undefined };
  });
  const extensions = (client.capabilities as { extensions?: unknown } | undefined)?.extensions;
  const evidence: AppsEvidence = { server, declared: isRecord(extensions) && extensions[APPS_EXTENSION] !== undefined, tools, reads: new Map() };
  if (client.capabilities?.resources) {
    try {
      evidence.resources = (await listItems(client, 'resources', options)) as unknown as Array<Record<string, unknown>>;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      evidence.listError = messageOf(error);
    }
  }
  const uris = uiUris(evidence);
  if (uris.length > MAX_UI_RESOURCES) options.onNote?.(`${server}: ${uris.length} UI resources; the first ${MAX_UI_RESOURCES} are read and checked, the rest are not`);
  for (const uri of uris.slice(0, MAX_UI_RESOURCES)) {
    let outcome: ReadOutcome;
    try {
      const result = await client.request('resources/read', { uri }, options);
      outcome = { contents: Array.isArray(result.contents) ? (result.contents as unknown[]).filter(isRecord) : [] };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      outcome = { error: messageOf(error) };
    }
    evidence.reads.set(uri, outcome);
  }
  return evidence;
}
