import type { ApiItem } from '../snapshot/snapshot-types.js';
import type { AppsEvidence } from '../extensions/apps/apps-wire.js';

/**
 * `toolrun mcp lint` (SPEC §19): how a set of servers' tools land in a host or a model. The engine
 * judges tool definitions (a snapshot's `tools`, or a live server's listing) against each target's
 * rule table; it never talks to a server and holds no terminal code.
 */

/** error: the target refuses or drops the tool (the run fails) · warning: it works, badly · note: worth knowing. */
export type Severity = 'error' | 'warning' | 'note';

/** One server's tools, in the order it listed them (a host keeps the first of two same-named tools). */
export interface ServerTools {
  server: string;
  tools: ApiItem[];
  /** The server's MCP Apps surface, gathered only for a target that probes Apps (`--target apps`). */
  apps?: AppsEvidence;
}

export interface Finding {
  /** `TARGET/RULE`, e.g. `openai/name-pattern`, `gemini/unsupported-keyword`; `mcp/…` for the rules of every target. */
  rule: string;
  /** A target name, or `mcp` for the rules that hold whatever the target. */
  target: string;
  severity: Severity;
  server: string;
  /** Absent for a finding about the whole set (too many tools, over the token budget). */
  tool?: string;
  /** Where in the tool definition, as a JSONPath: `$.name`, `$.inputSchema.properties.q.$ref`. */
  path: string;
  message: string;
  /** One line: what the author changes. */
  fix: string;
  /** The page, source file or issue the rule comes from. */
  source: string;
}

/** The rules that hold for one target: a version changes only when a rule is added, removed or made stricter. */
export interface LintTarget {
  name: string;
  version: number;
  /** Who it is: `OpenAI API (Chat Completions, Responses)`. */
  title: string;
  /** The definition format its model receives, for the token count. */
  format: 'openai' | 'anthropic' | 'gemini';
  /** Judges live servers' MCP Apps (ServerTools.apps): lint claims the extension at the handshake and reads their UI resources. */
  probesApps?: boolean;
  check(servers: ServerTools[]): Finding[];
}

export interface ToolTokens {
  server: string;
  tool: string;
  tokens: number;
  /** The costliest part of the definition: `description`, `parameter 'query'`, `inputSchema`. */
  costliest: { part: string; tokens: number };
}

export interface TokenReport {
  /** `o200k_base`: OpenAI's encoding for its current models; exact for the openai format, an estimate for the others. */
  encoding: string;
  format: LintTarget['format'];
  exact: boolean;
  total: number;
  servers: Array<{ server: string; tools: number; tokens: number }>;
  /** Every tool, the costliest first. */
  tools: ToolTokens[];
}

export interface LintReport {
  targets: Array<{ name: string; version: number; title: string }>;
  servers: Array<{ server: string; tools: number }>;
  findings: Finding[];
  tokens?: TokenReport;
  /** Error-level findings: the exit code is 1 when there is one. */
  errors: number;
}
