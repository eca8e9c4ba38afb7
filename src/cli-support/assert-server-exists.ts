import type { ToolrunConfig } from '../config/config-types.js';
import { UnknownServerError } from '../errors.js';
import { quoteShellWord } from '../text/quote-shell-word.js';

/** UsageError naming the configured servers when `name` is not one of them. */
export function assertServerExists(config: ToolrunConfig, name: string): void {
  if (config.servers[name]) return;
  const configured = Object.keys(config.servers);
  const known =
    configured.length > 0
      ? `configured servers: ${configured.map(quoteShellWord).join(', ')}`
      : `no MCP servers are configured${config.path ? ` in ${config.path}` : ' (no config file found; pass --config)'}`;
  throw new UnknownServerError(name, `unknown MCP server '${name}'; ${known}`);
}
