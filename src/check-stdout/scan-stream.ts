import type { Readable } from 'node:stream';
import { isRecordingStart, recordedBytes, recordingReader } from '../record/recording.js';
import { StdoutScanner, type ScanReport } from '../scan/stdout-scanner.js';

/**
 * Scans a whole stream (a capture file, a recording, stdin) with flat memory: chunks are scanned
 * and let go. A recording (SPEC §11, its first line says so) is scanned by its `recv` lines — the
 * server's stdout, byte for byte; anything else is taken as the raw stdout itself.
 */
export async function scanStream(stream: Readable, options?: ConstructorParameters<typeof StdoutScanner>[0]): Promise<ScanReport> {
  const scanner = new StdoutScanner(options);
  let recording: ReturnType<typeof recordingScanner> | undefined;
  let first = true;
  for await (const raw of stream) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
    if (first) {
      first = false;
      if (isRecordingStart(chunk)) recording = recordingScanner(scanner);
    }
    if (recording) recording.push(chunk);
    else scanner.push(chunk);
  }
  recording?.end();
  return scanner.end();
}

/** Feeds the scanner the `recv` lines of a recording; the header and other directions are skipped. */
function recordingScanner(scanner: StdoutScanner) {
  return recordingReader((entry) => {
    if (entry.dir === 'recv') scanner.push(recordedBytes(entry));
  });
}
