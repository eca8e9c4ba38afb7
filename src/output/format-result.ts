import type { ToolEnvelope } from '../executor/envelope.js';
import { toJson } from './terminal.js';

/** A tool's result for people: text as text, anything else as indented JSON. */
export function formatResult(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return 'null';
  return toJson(result);
}

/** The stderr line after a result: `✔ math_eval · builtin · 3.21 ms`. */
export function formatEnvelopeFooter(envelope: ToolEnvelope): string {
  const origin = envelope.server ? `mcp:${envelope.server}` : envelope.source ?? '';
  return `${envelope.success ? '✔' : '✖'} ${envelope.tool_name} · ${origin} · ${formatMs(envelope.execution_time_ms)}`;
}

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(2)} ms`;
}
