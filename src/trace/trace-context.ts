/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/), the part toolrun needs on every run:
 * read a caller's `traceparent`, make one, make ids. Tiny and always loaded; the OpenTelemetry SDK
 * that exports spans (otlp-export.ts) loads only with --otlp, as OpenTelemetry JS splits its API
 * from its SDK.
 */

/** A parsed `traceparent` header value. */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero: the caller's span. */
  parentId: string;
  /** 2 hex digits; bit 0 is "sampled". */
  flags: string;
}

const HEX = /^[0-9a-f]+$/;

/**
 * A `traceparent` value, or a reason it is not one. The W3C rules (§3.2.2): `version-traceid-parentid-flags`,
 * lowercase hex; version `ff` is invalid; an all-zero trace id or parent id is invalid; version 00 is
 * exactly 55 characters, and a later version may carry more fields after a `-` (§3.2.4, read as 00).
 */
export function parseTraceParent(value: string): TraceParent | { invalid: string } {
  const text = value.trim();
  const [version, traceId, parentId, flags] = text.split('-', 4);
  if (version === undefined || version.length !== 2 || !HEX.test(version) || version === 'ff') return { invalid: 'its version is not 2 lowercase hex digits other than ff' };
  if (version === '00' ? text.length !== 55 : text.length < 55 || (text.length > 55 && text[55] !== '-')) return { invalid: 'it is not version-traceid-parentid-flags (55 characters for version 00)' };
  if (traceId?.length !== 32 || !HEX.test(traceId) || /^0+$/.test(traceId)) return { invalid: 'its trace id is not 32 lowercase hex digits, not all zero' };
  if (parentId?.length !== 16 || !HEX.test(parentId) || /^0+$/.test(parentId)) return { invalid: 'its parent id is not 16 lowercase hex digits, not all zero' };
  if (flags === undefined || flags.length < 2 || !HEX.test(flags.slice(0, 2))) return { invalid: 'its flags are not 2 lowercase hex digits' };
  return { traceId, parentId, flags: flags.slice(0, 2) };
}

/** The `traceparent` value toolrun sends (always version 00). */
export function formatTraceParent(traceId: string, spanId: string, flags: string): string {
  return `00-${traceId}-${spanId}-${flags}`;
}

/**
 * `bytes` random bytes as lowercase hex, never all zero (an all-zero id is invalid: the last digit is
 * then 1). Math.random, as OpenTelemetry JS's own RandomIdGenerator makes trace and span ids
 * (@opentelemetry/sdk-trace 2.12, platform/node/RandomIdGenerator.js): ids need to be unique, not
 * secret, and the first use of globalThis.crypto cost ~1 ms of every start (warm exec through a
 * holder went from 1.32× to 1.43× its floor; 1.33× with this).
 */
export function randomHexId(bytes: 8 | 16): string {
  let hex = '';
  while (hex.length < bytes * 2)
    hex += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  hex = hex.slice(0, bytes * 2);
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** A new trace toolrun starts: sampled (01), so that servers whose sampler follows the parent record it. */
export const NEW_TRACE_FLAGS = '01';

/**
 * `tracestate` as W3C §3.3 allows it: at most 512 characters of list members, printable ASCII. An
 * invalid one is dropped, not sent (a vendor MAY discard it: §3.3.1.1).
 */
export function validTraceState(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text || text.length > 512 || !/^[\x20-\x7e]+$/.test(text)) return undefined;
  return text;
}
