import type { RegisteredTool } from '../registry/tool-types.js';
import { fixSchema } from '../lint/fix-schema.js';
import { codexToolName } from '../lint/targets/codex.js';
import { geminiCliToolName } from '../lint/targets/gemini-cli.js';
import { vscodeToolId } from '../lint/targets/vscode.js';

/** A tool as the model is shown it, and the real tool a call to that name runs. */
export interface PresentedTool {
  /** The name the model sees (and calls). */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  tool: RegisteredTool;
}

/**
 * How each host shows MCP tools to its model, from `mcp lint`'s targets (src/lint/targets/, each
 * citing its host's source): the name it gives a tool, how many tools it sends, and the schema
 * transform it applies. A host without an entry shows the tools as the server lists them.
 */
interface HostPresentation {
  rename?: (server: string, tool: RegisteredTool) => string;
  /** The host sends only this many tools (the first ones). */
  maxTools?: number;
  /** Tools whose server + tool name is longer than this are filtered out. */
  maxCombinedName?: number;
  /** The schema as the host's model receives it (src/lint/fix-schema.ts). */
  schemaTarget?: 'gemini' | 'openai' | 'codex' | 'anthropic';
}

const asItem = (tool: RegisteredTool) => ({ name: tool.definition.name, description: tool.definition.description, inputSchema: tool.definition.parameters });

const HOSTS: Record<string, HostPresentation> = {
  // src/lint/targets/vscode.ts: mcp_<server>_<tool>, [a-z0-9_-], cut to 64; 128 tools before grouping.
  vscode: { rename: (server, tool) => vscodeToolId(server, asItem(tool)), maxTools: 128 },
  // src/lint/targets/gemini-cli.ts: mcp_<server>_<tool>, shortened past 63; the schema sent as it is.
  'gemini-cli': { rename: (server, tool) => geminiCliToolName(server, asItem(tool)) },
  // src/lint/targets/codex.ts: mcp__server__tool, cut and hashed past 64; only the keywords Codex keeps.
  codex: { rename: (server, tool) => codexToolName(server, asItem(tool)), schemaTarget: 'codex' },
  // src/lint/targets/cursor.ts: the first 40 tools; server + tool name over 60 filtered out (unconfirmed).
  cursor: { maxTools: 40, maxCombinedName: 60 },
  // src/lint/targets/windsurf.ts: 100 tools in all.
  windsurf: { maxTools: 100 },
  // The APIs themselves: the schema as each accepts it (src/lint/fix-schema.ts).
  openai: { schemaTarget: 'openai', maxTools: 128 },
  anthropic: { schemaTarget: 'anthropic' },
  gemini: { schemaTarget: 'gemini', maxTools: 512 },
};

/** The hosts `--as` takes: every lint target that presents tools (apps judges a surface, not a presentation). */
export function presentationHosts(): string[] {
  return Object.keys(HOSTS);
}

/**
 * The tools as `host` presents them (undefined: as listed). Local tools (no server) are named as
 * a host names a server's, under `localServer`. Two tools the host names alike: the first is kept,
 * as hosts keep the first (src/lint/targets/gemini-cli.ts overwrites, the model sees one either way).
 */
export function presentTools(tools: RegisteredTool[], host: string | undefined, localServer = 'toolrun'): PresentedTool[] {
  const presentation: HostPresentation = host === undefined ? {} : (HOSTS[host] ?? {});
  const byName = new Map<string, PresentedTool>();
  for (const tool of tools) {
    const server = tool.server ?? localServer;
    if (presentation.maxCombinedName !== undefined && server.length + tool.definition.name.length > presentation.maxCombinedName) continue;
    const name = presentation.rename ? presentation.rename(server, tool) : tool.definition.name;
    if (byName.has(name)) continue;
    const schema = presentation.schemaTarget ? fixSchema(tool.definition.parameters, presentation.schemaTarget) : tool.definition.parameters;
    byName.set(name, { name, description: tool.definition.description, inputSchema: schema, tool });
  }
  const presented = [...byName.values()];
  return presentation.maxTools !== undefined ? presented.slice(0, presentation.maxTools) : presented;
}
