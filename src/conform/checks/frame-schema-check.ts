/**
 * schema.frames: every frame the server sent is valid against the official JSON Schema of the
 * revision negotiated (schemas/mcp/<revision>/schema.json, the spec's own file).
 *
 * Only frames received from the server are judged: toolrun's own requests include malformed ones on
 * purpose (the bad-params and unknown-method probes), and those are not the server's to answer for.
 */
import type { ConformCheck, CheckOutcome } from '../check-types.js';
import type { CheckEvidence } from '../conform-types.js';
import { validateFrame, type FrameViolation } from '../frame-schema.js';
import { loadMcpSchema, shippedRevisions } from '../mcp-schemas.js';
import type { RecordedFrame } from '../probe-types.js';

/** Evidences shown at most; the message says how many more there were. */
const MAX_EVIDENCE = 20;
/** A frame longer than this (as JSON) is shown as its envelope and the part the violation is in. */
const WHOLE_FRAME_CHARS = 2000;

export const frameSchemaCheck: ConformCheck = {
  id: 'schema.frames',
  afterDeadline: true,
  title: "Every frame the server sends matches the revision's JSON Schema",
  section: 'schema',
  run: async (context) =>
    frameSchemaOutcome(
      context.channel.protocolVersion,
      context.channel.frames.filter((frame) => !frame.probe),
    ),
};

/** The check's verdict on a set of frames (the runner may pass the frames of several channels). */
export function frameSchemaOutcome(revision: string, frames: readonly RecordedFrame[]): CheckOutcome {
  if (!loadMcpSchema(revision)) {
    return { verdict: 'skip', message: `toolrun has no JSON Schema for protocol revision ${revision} (it has ${shippedRevisions().join(', ')})` };
  }
  const judged = judgeFrames(revision, frames);
  const received = frames.filter((frame) => frame.direction === 'received' && frame.message !== undefined).length;
  if (judged.length === 0) return { verdict: 'pass', message: `${received} frames received, all valid against the ${revision} schema` };
  const evidence = judged.flatMap(toEvidence);
  const more = evidence.length > MAX_EVIDENCE ? `; the first ${MAX_EVIDENCE} shown, ${evidence.length - MAX_EVIDENCE} more not` : '';
  return {
    verdict: 'fail',
    message: `${evidence.length} schema violation${evidence.length === 1 ? '' : 's'} in ${judged.length} of ${received} frames received (revision ${revision})${more}`,
    evidence: evidence.slice(0, MAX_EVIDENCE),
  };
}

/**
 * One evidence per violation in the frames received from the server (all of them, uncapped), for
 * this check and for the runner to judge the frames of its other channels (a fresh connection's).
 */
export function validateFrames(revision: string, frames: readonly RecordedFrame[]): CheckEvidence[] {
  return judgeFrames(revision, frames).flatMap(toEvidence);
}

interface JudgedFrame {
  frame: RecordedFrame;
  violations: FrameViolation[];
}

/** The received frames that have violations, with them. */
function judgeFrames(revision: string, frames: readonly RecordedFrame[]): JudgedFrame[] {
  return frames
    .filter((frame) => frame.direction === 'received')
    .flatMap((frame) => {
      const violations = validateFrame(revision, frame);
      return violations.length > 0 ? [{ frame, violations }] : [];
    });
}

function toEvidence({ frame, violations }: JudgedFrame): CheckEvidence[] {
  return violations.map((violation) => ({
    detail: `${whatFrame(frame)}: ${violation.path || 'the frame'} ${violation.message}${violation.definition ? ` (${violation.definition})` : ''}`,
    frame: showFrame(frame.message, violation.path),
    direction: frame.direction,
    ...(frame.line !== undefined ? { line: frame.line } : {}),
    ...(violation.path ? { path: violation.path } : {}),
  }));
}

/** `line 12, result of tools/list` / `frame 7, notifications/progress`: which frame, in a bug report's words. */
function whatFrame(frame: RecordedFrame): string {
  const where = frame.line !== undefined ? `line ${frame.line}` : `frame ${frame.index}`;
  const message = (typeof frame.message === 'object' && frame.message !== null ? frame.message : {}) as Record<string, unknown>;
  if (typeof message.method === 'string') return `${where}, ${'id' in message ? 'request' : 'notification'} ${message.method}`;
  const kind = 'error' in message ? 'error' : 'result';
  return `${where}, ${kind} of ${frame.answers ?? 'an unknown request'}`;
}

/** The frame itself when short; else its envelope and the value at the violation's path. */
function showFrame(message: unknown, path: string): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message) || !path) return message;
  if (JSON.stringify(message).length <= WHOLE_FRAME_CHARS) return message;
  const record = message as Record<string, unknown>;
  const envelope = Object.fromEntries(['jsonrpc', 'id', 'method'].filter((key) => key in record).map((key) => [key, record[key]]));
  return { ...envelope, [path]: valueAtPath(record, path) };
}

function valueAtPath(value: unknown, path: string): unknown {
  let node = value;
  for (const match of path.matchAll(/\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\.?([A-Za-z_$][\w$]*)/g)) {
    const key = match[1] !== undefined ? Number(match[1]) : match[2] !== undefined ? (JSON.parse(`"${match[2]}"`) as string) : match[3];
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
