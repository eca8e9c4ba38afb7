import type { RecordedFrame } from './probe-types.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/**
 * The bound on what one channel records: a server that floods (an endless log, a loop of
 * notifications) must cost a failed check, not toolrun's memory. Past it the channel stops
 * reading and says so.
 */
export const MAX_FRAMES = 5000;
export const MAX_RECORDED_BYTES = 32 * 1024 * 1024;
/** How much of a line that is not JSON-RPC is kept as evidence. */
const RAW_EVIDENCE_CHARS = 200;

/** Every frame of one channel, in order, with its time and (stdio) its stdout line. */
export class FrameLog {
  readonly frames: RecordedFrame[] = [];
  readonly #openedAt = performance.now();
  #bytes = 0;
  /** Set once the bound is passed: why recording stopped. */
  overflow: string | undefined;

  get elapsedMs(): number {
    return Math.round(performance.now() - this.#openedAt);
  }

  /** Records a frame; returns undefined once the log is full (the caller stops reading). */
  add(direction: RecordedFrame['direction'], message: unknown, extra: { line?: number; raw?: string; answers?: string; bytes?: number; answersId?: number } = {}): RecordedFrame | undefined {
    if (this.overflow) return undefined;
    this.#bytes += extra.bytes ?? 0;
    if (this.frames.length >= MAX_FRAMES || this.#bytes > MAX_RECORDED_BYTES) {
      this.overflow = `the server sent more than ${this.frames.length >= MAX_FRAMES ? `${MAX_FRAMES} frames` : `${MAX_RECORDED_BYTES / 1024 / 1024} MB`}; toolrun stopped reading it`;
      return undefined;
    }
    const frame: RecordedFrame = { index: this.frames.length, direction, atMs: this.elapsedMs, message };
    if (extra.line !== undefined) frame.line = extra.line;
    if (extra.raw !== undefined) frame.raw = extra.raw.length > RAW_EVIDENCE_CHARS ? maskThenCut(extra.raw, RAW_EVIDENCE_CHARS + 1, '…') : extra.raw;
    if (extra.answers !== undefined) frame.answers = extra.answers;
    this.frames.push(frame);
    return frame;
  }
}
