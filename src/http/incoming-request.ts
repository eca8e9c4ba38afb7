import type { IncomingMessage, ServerResponse } from 'node:http';
import { lazyCrypto } from '../lazy-crypto.js';

/**
 * What toolrun's own HTTP endpoints (`serve --http`, `mcp mock --http`) do with a request before
 * MCP sees it: read its body within a bound, check its Origin, answer with JSON.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The body, or undefined past `maxBytes` (the request is then dropped): a flood is not buffered. */
export function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** An Origin on this machine: anything else is a page elsewhere reaching a local server (the spec's DNS-rebinding guard). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/** What a client guarded by `--token-env` must send in its Authorization header. */
export function bearerHeader(token: string): Buffer {
  return Buffer.from(`Bearer ${token}`);
}

/** The Authorization header against the expected one, in constant time (no timing tells how much of a guess was right). */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && lazyCrypto().timingSafeEqual(given, expected);
}
