import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from '../config/resolve-server.js';
import type { BrokenTool } from './list-tools.js';
import type { ShutdownOutcome, StdioTapTransport } from './stdio-tap-transport.js';

/** Time spent in each one-time phase of a connection, in ms. */
export interface ConnectionTimings {
  /** stdio: until the process was spawned. */
  spawnMs?: number;
  /** Until initialize was answered (from the start of the attempt). */
  initializeMs: number;
  listToolsMs: number;
  /** The whole successful attempt. */
  totalMs: number;
}

/** A live, initialized connection to one MCP server, with its tool list. */
export interface ServerConnection {
  name: string;
  spec: ServerSpec;
  client: Client;
  transport: Transport;
  /** Present for stdio servers: stderr tail, exit info, shutdown. */
  stdio?: StdioTapTransport;
  /** 'stdio', 'http' or 'sse': the transport that worked. */
  transportKind: 'stdio' | 'http' | 'sse';
  serverInfo?: Implementation;
  protocolVersion?: string;
  capabilities?: ServerCapabilities;
  instructions?: string;
  tools: Tool[];
  /** Tools the server listed with a definition no client can use: left out of `tools`, reported. */
  brokenTools: BrokenTool[];
  /** An npx-style runner installed the package first (a cold cache) before the server ran. */
  installed: boolean;
  timings: ConnectionTimings;
  /** Which attempt succeeded (1 = first). */
  attempt: number;
  /** Closes the connection and, for stdio, ends the process: stdin, SIGTERM, SIGKILL. */
  close(): Promise<ShutdownOutcome | undefined>;
}
