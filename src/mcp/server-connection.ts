import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from '../config/resolve-server.js';
import type { EraChoice } from '../protocol/protocol-era.js';
import type { BrokenTool } from './list-tools.js';
import type { McpClient } from './mcp-client.js';
import type { ShutdownOutcome } from '../process/exit-info.js';
import type { LineTransport } from './transports/line-transport.js';
import type { SessionEnd } from './transports/remote-session.js';

/** Time spent in each one-time phase of a connection, in ms. */
export interface ConnectionTimings {
  /** stdio: until the process was spawned. */
  spawnMs?: number;
  /** The request that opened the session: `initialize` (2025 family) or `server/discover` (2026-07-28). */
  handshake: 'initialize' | 'server/discover';
  /** Until the handshake was answered (from the start of the attempt). */
  initializeMs: number;
  listToolsMs: number;
  /** The whole successful attempt. */
  totalMs: number;
}

/** A live, initialized connection to one MCP server, with its tool list. */
export interface ServerConnection {
  name: string;
  spec: ServerSpec;
  client: McpClient;
  transport: Transport;
  /** Present for stdio servers: stderr tail, exit info, shutdown. */
  stdio?: LineTransport;
  /** 'stdio', 'http' or 'sse': the transport that worked. */
  transportKind: 'stdio' | 'http' | 'sse';
  serverInfo?: Implementation;
  protocolVersion?: string;
  /** The protocol era, revision, and how they were chosen (SPEC §10). */
  era: EraChoice;
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
  /** Served by a session holder (SPEC §12): its pid, and how long getting the connection from it took. */
  viaSession?: { holderPid: number; ms: number };
  /**
   * Closes the connection, and says how: for stdio, ends the process (stdin, SIGTERM, SIGKILL); over
   * Streamable HTTP, ends the session with a DELETE carrying its Mcp-Session-Id first.
   */
  close(): Promise<ShutdownOutcome | SessionEnd | undefined>;
}
