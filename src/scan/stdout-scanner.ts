import { LineSplitter, type RawLine } from '../process/line-splitter.js';
import { classifyLine } from './classify-line.js';
import { KIND_INFO, type FindingKind } from './finding-kinds.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/** One bad line. */
export interface Finding {
  /** 1-based. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  kind: FindingKind;
  severity: 'error' | 'warning';
  /** The line as text, shortened to 200 characters. */
  text: string;
}

export interface ScanSummary {
  lines: number;
  bytes: number;
  /** JSON-RPC messages a strict client delivers. */
  messages: number;
  /** Lines with at least one error finding. */
  pollutingLines: number;
  /** Lines whose findings are all warnings (every client reads them). */
  warningLines: number;
  byKind: Partial<Record<FindingKind, number>>;
  /** More findings were seen than kept (memory stays flat on huge captures). */
  truncated: boolean;
}

export interface ScanReport {
  findings: Finding[];
  summary: ScanSummary;
}

export const SDK_MAX_LINE_BYTES = 10 * 1024 * 1024;
const MAX_TEXT_CHARS = 200;

/**
 * Replays stdout bytes line by line the way a strict newline-delimited JSON-RPC client reads them,
 * and records every line that would break or confuse one. Streaming and pure: bytes in (push),
 * findings out (report); it goes on after every bad line. Independent of where the bytes come from.
 */
export class StdoutScanner {
  readonly #findings: Finding[] = [];
  readonly #summary: ScanSummary = { lines: 0, bytes: 0, messages: 0, pollutingLines: 0, warningLines: 0, byKind: {}, truncated: false };
  readonly #splitter: LineSplitter;
  readonly #maxFindings: number;

  constructor(options: { maxFindings?: number; maxLineBytes?: number } = {}) {
    this.#maxFindings = options.maxFindings ?? 10_000;
    this.#splitter = new LineSplitter((line) => this.scanLine(line), options.maxLineBytes ?? SDK_MAX_LINE_BYTES);
  }

  push(chunk: Buffer): void {
    this.#splitter.push(chunk);
  }

  /** Ends the stream (a last line without newline is `unterminated`) and returns the report. */
  end(): ScanReport {
    this.#splitter.end();
    return this.report();
  }

  report(): ScanReport {
    return { findings: [...this.#findings], summary: { ...this.#summary, byKind: { ...this.#summary.byKind } } };
  }

  /** Scans a line that was split elsewhere (the MCP transport already splits a live session's stdout). */
  scanLine(line: RawLine): void {
    const summary = this.#summary;
    summary.lines++;
    summary.bytes += line.length + (line.terminated ? 1 : 0);
    const verdict = classifyLine(line.bytes, line.terminated, line.oversize);
    if (verdict.isMessage) summary.messages++;
    if (verdict.kinds.length === 0) return;
    let error = false;
    for (const kind of verdict.kinds) {
      const severity = KIND_INFO[kind].severity;
      if (severity === 'error') error = true;
      summary.byKind[kind] = (summary.byKind[kind] ?? 0) + 1;
      if (this.#findings.length < this.#maxFindings) {
        this.#findings.push({ line: line.lineNumber, offset: line.offset, kind, severity, text: shorten(line.bytes) });
      } else summary.truncated = true;
    }
    if (error) summary.pollutingLines++;
    else summary.warningLines++;
  }
}

function shorten(bytes: Buffer): string {
  const text = bytes
    .subarray(0, MAX_TEXT_CHARS * 4)
    .toString('utf8')
    .replace(/\r$/, '');
  // Masked before it is cut (maskThenCut): a secret across the cut would leave its start.
  return maskThenCut(text, MAX_TEXT_CHARS, '…');
}
