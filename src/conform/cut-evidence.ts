import type { CheckEvidence } from './conform-types.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

const MAX_STRING = 300;
const MAX_ITEMS = 12;
const MAX_DEPTH = 8;

/**
 * A frame cut to what a report can carry: long strings, long arrays and deep nesting shortened and
 * marked, so a server that answers with megabytes still gets a readable, bounded piece of evidence.
 */
export function cutValue(value: unknown, depth = 0): unknown {
  // Masked before it is cut (maskThenCut): a secret across the cut would leave its start.
  if (typeof value === 'string') return value.length > MAX_STRING ? `${maskThenCut(value, MAX_STRING)}… (${value.length} chars)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[… ${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((item) => cutValue(item, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more`] : kept;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const kept = entries.slice(0, 40).map(([key, item]) => [key, cutValue(item, depth + 1)]);
  if (entries.length > 40) kept.push(['…', `${entries.length - 40} more keys`]);
  return Object.fromEntries(kept);
}

export function cutEvidence(evidence: CheckEvidence[]): CheckEvidence[] {
  return evidence.slice(0, 25).map((item) => (item.frame === undefined ? item : { ...item, frame: cutValue(item.frame) }));
}
