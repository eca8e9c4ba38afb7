import type { AskBack } from '../mcp/ask-back.js';
import type { ToolrunConfig } from '../config/config-types.js';
import type { RetryLogger, SessionCall } from '../mcp/connect/open-session.js';
import type { MachineTokenTrace } from '../auth/machine-trace.js';
import type { AuthChallengeHints } from '../auth/machine-token.js';
import type { RemoteServerSpec } from '../config/resolve-server.js';
import type { StoredTokenSummary } from '../auth/token-summary.js';
/**
 * The eight steps of SPEC §5, in order, with `--host` the host step of SPEC §13 (the server started
 * the host's way and yours), and for a remote server the auth step of SPEC §14.
 */
export type DoctorStepId = 'config' | 'host' | 'auth' | 'spawn' | 'initialize' | 'tools' | 'stdout' | 'stderr' | 'latency' | 'shutdown';

export type StepStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorStep {
  id: DoctorStepId;
  status: StepStatus;
  /** One line: what was found. */
  finding: string;
  /** Supporting lines (stderr, polluting lines, tool problems), already shortened. */
  details: string[];
  /** What to do about it, when something is wrong. */
  fix?: string;
  /** Machine-readable facts for --json (times, versions, counts). */
  data: Record<string, unknown>;
}

export interface DoctorReport {
  server: string;
  transport: string;
  steps: DoctorStep[];
  problems: number;
  warnings: number;
  verdict: 'healthy' | 'problems' | 'unreachable';
  /** 0 healthy, 1 problems, 4 unreachable (3 for a config error in the server's entry). */
  exitCode: number;
  durationMs: number;
}

export interface DoctorOptions {
  config: ToolrunConfig;
  server: string;
  env: NodeJS.ProcessEnv;
  logger: RetryLogger;
  /** Builtin and config tool names, to report MCP tools that duplicate them. */
  localToolNames: string[];
  /** One real call for the latency step; `args` gets the tool's input schema (to type key=value). */
  call?: SessionCall;
  timeoutMs: number;
  signal?: AbortSignal;
  /** `--auth-probe`: the auth step registers a throwaway client and tries the authorization and token endpoints. */
  authProbe?: boolean;
  /** The token store's word on a server (null: no token); without it, doctor connects and lets the server say. */
  lookupToken?: (server: string, url: string) => Promise<StoredTokenSummary | null | undefined>;
  /** A grant with no person (SPEC §21): gets the token as a command would, recording each request (machine-trace.ts). */
  traceMachineToken?: (spec: RemoteServerSpec, hints: AuthChallengeHints) => Promise<MachineTokenTrace>;
  /** Someone can answer a browser ($BROWSER, or a terminal): with no token stored, the connection logs in instead of stopping. */
  loginInline?: boolean;
  /** Progress, for a spinner: called when a step starts. */
  onStep?: (id: DoctorStepId) => void;
  /** How a server that asks back is answered: the same capabilities as exec, so the server shows doctor what exec sees. */
  askBack?: AskBack;
}
