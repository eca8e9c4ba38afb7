import type { AskBack } from '../mcp/ask-back.js';
import type { RetryPolicy } from '../config/config-types.js';
import type { ServerSpec } from '../config/resolve-server.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { AttemptScan, openSession, ServerConnectError, type RetryLogger, type SessionCall } from '../mcp/connect/open-session.js';
import type { RecordingWriter } from '../record/recording.js';
import type { ScanReport } from '../scan/stdout-scanner.js';

export interface RecordedSession {
  /** The scan of the last attempt's stdout (each attempt is a new process). */
  report: ScanReport;
  /** Steps of the session that ran, e.g. ["initialize", "tools/list", "ping", "tools/call control_zwave_device"]. */
  steps: string[];
  failure?: ConnectFailure;
  /** An error from ping or the --call, if any (the scan still covers what was written). */
  sessionError?: string;
}

export interface RecordOptions {
  policy: RetryPolicy;
  logger: RetryLogger;
  call?: SessionCall;
  /** Where the session is recorded as it happens (--save, SPEC §11); nothing is kept in memory. */
  recording?: RecordingWriter;
  /** How a server that asks back is answered (SPEC §15). */
  askBack?: AskBack;
  signal?: AbortSignal;
  timeoutMs: number;
}

/**
 * Drives a standard session against a stdio server (initialize, initialized, tools/list, ping, and
 * an optional tools/call), then closes it and scans everything it wrote to stdout.
 */
export async function recordSession(spec: ServerSpec, options: RecordOptions): Promise<RecordedSession> {
  const scan = new AttemptScan();
  const steps: string[] = [];
  let connection: ServerConnection;
  try {
    connection = await openSession(spec, options.policy, { logger: options.logger, signal: options.signal, recording: options.recording, stdoutScan: scan, hooks: { askBack: options.askBack } });
  } catch (error) {
    if (!(error instanceof ServerConnectError)) throw error;
    return { report: scan.current.end(), steps, failure: error.failure };
  }
  const era = connection.era;
  steps.push(...(era.probed && era.handshake === 'initialize' ? ['server/discover', 'initialize'] : [era.handshake]), 'tools/list');
  let sessionError: string | undefined;
  try {
    await connection.client.ping({ timeout: options.timeoutMs });
    steps.push(era.era === 'modern' ? 'server/discover' : 'ping');
    if (options.call) {
      const schema = connection.tools.find((tool) => tool.name === options.call!.tool)?.inputSchema as Record<string, unknown> | undefined;
      await connection.client.callTool(options.call.tool, options.call.args(schema), { timeout: options.timeoutMs });
      steps.push(`tools/call ${options.call.tool}`);
    }
  } catch (error) {
    sessionError = (error as Error).message;
  } finally {
    await connection.close();
  }
  return { report: scan.current.end(), steps, sessionError };
}
