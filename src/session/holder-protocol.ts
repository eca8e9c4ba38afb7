/**
 * What a client and a holder say to each other over the holder's Unix socket: one JSON object per
 * line. A client sends requests `{id, op, ...}`; the holder answers each with events
 * `{id, event, ...}` (progress, server logs and stderr while it runs) and one final reply
 * `{id, done: true, ok, ...}`.
 */

export type HolderOp = 'status' | 'exec' | 'servers' | 'request' | 'call-tool' | 'ping' | 'time' | 'cancel' | 'add' | 'stop';

export interface HolderRequest {
  id: number;
  op: HolderOp;
  [field: string]: unknown;
}

export interface HolderEvent {
  id: number;
  event: 'progress' | 'log' | 'stderr' | 'note' | 'timed';
  server?: string;
  [field: string]: unknown;
}

export interface HolderReply {
  id: number;
  done: true;
  ok: boolean;
  /** When ok is false: what went wrong, with the MCP error code when the server gave one. */
  error?: { message: string; code?: number; kind?: string; data?: unknown };
  [field: string]: unknown;
}

/** What `status` answers: the holder and each of its servers. */
export interface HolderStatus {
  pid: number;
  /** The holder's socket (its name is the config's key). */
  socket: string;
  config: string | null;
  startedAt: string;
  /** ms since the last request. */
  idleMs: number;
  idleTimeoutMs: number;
  /** Requests served (each exec, list, call…); the servers' own `calls` count tool calls. */
  requests: number;
  /** Does it hold every server of its config (then a tool it does not know is not in the config)? */
  holdsAll: boolean;
  servers: Array<{ name: string; status: 'connected' | 'failed'; tools?: number; calls?: number; pid?: number; protocol?: string; reason?: string }>;
}

/** Splits a socket's data into JSON messages; a line that is not JSON is ignored (nothing else writes there). */
export function messageReader(onMessage: (message: Record<string, unknown>) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim()) {
        try {
          onMessage(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a message
        }
      }
      newline = pending.indexOf('\n');
    }
  };
}
