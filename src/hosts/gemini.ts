import type { HostReader } from './host-types.js';
import { readCommonEntry, serverMapOf } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';

/**
 * Gemini CLI: `~/.gemini/settings.json` (user), `.gemini/settings.json` (project, wins over user).
 * `mcpServers` entries: command/args/env/cwd (stdio), `url` (SSE), `httpUrl` (Streamable HTTP),
 * headers, timeout (ms, per request), trust, includeTools, excludeTools. Strings may use `$VAR` or
 * `${VAR}`. Sources: google-gemini/gemini-cli docs/tools/mcp-server.md, geminicli.com/docs/cli/
 * configuration ("Configuration layers": project settings override user settings).
 */
export const readGemini: HostReader = (text, context) => {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { servers: [], problems: [parsed.problem] };
  return serverMapOf(parsed.value, 'mcpServers', context, { style: 'dollar', handled: ['httpUrl'] }, (name, raw, ctx, options) => {
    const server = readCommonEntry(name, raw, ctx, options);
    // `url` is SSE and `httpUrl` Streamable HTTP: the transport follows which one is set.
    if (raw.httpUrl !== undefined) {
      const http = readCommonEntry(name, { url: raw.httpUrl }, ctx, options);
      server.entry.url = http.entry.url;
      server.entry.type = 'http';
      server.fields = { url: 'httpUrl' };
      server.unresolved.push(...http.unresolved);
    } else if (raw.url !== undefined) server.entry.type = 'sse';
    return server;
  });
};
