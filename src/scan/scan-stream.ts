import type { Readable } from 'node:stream';
import { StdoutScanner, type ScanReport } from './stdout-scanner.js';

/** Scans a whole stream (a capture file, stdin) with flat memory: chunks are scanned and let go. */
export async function scanStream(stream: Readable, options?: ConstructorParameters<typeof StdoutScanner>[0]): Promise<ScanReport> {
  const scanner = new StdoutScanner(options);
  for await (const chunk of stream) scanner.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return scanner.end();
}
