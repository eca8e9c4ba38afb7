import type { ApiSnapshot } from '../snapshot/snapshot-types.js';

/**
 * What `toolrun mcp mock` serves (SPEC §20), read from its SOURCE: a recording's answers, keyed by
 * method and parameters, or a snapshot's (or a config's mock tools') API, answered by generating.
 */
export interface RecordedExchange {
  method: string;
  params: Record<string, unknown> | undefined;
  /** The recorded answer: a result or a JSON-RPC error. */
  answer: { result: unknown } | { error: { code: number; message: string; data?: unknown } };
}

export type MockBook = { kind: 'recording'; label: string; exchanges: RecordedExchange[] } | { kind: 'snapshot'; label: string; api: ApiSnapshot; mockResults: Map<string, unknown> };

/** The protocol revisions a mock answers `initialize` with: the client's when it is one of these, else the newest. */
export const MOCK_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
