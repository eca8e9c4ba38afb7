import type { Readable } from 'node:stream';
import { recordedBytes, recordingReader, type RecordedLine, type RecordingHeader } from '../record/recording.js';
import { buildSnapshot } from './build-snapshot.js';
import { SECTIONS, type ApiSource, type SectionName } from './snapshot-types.js';

interface Handshake {
  serverName?: string;
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
}

/**
 * The API a recorded session saw (SPEC §11 format): for each list, the last listing the client made —
 * a request without a cursor and the pages it followed — taken from the server's answers matched to
 * the client's requests by id. A list the session never asked for is left absent (not compared),
 * unless the handshake shows the capability was not advertised: then it is known to be empty.
 */
export async function readRecordingApi(stream: Readable, label: string): Promise<ApiSource> {
  let header: RecordingHeader | undefined;
  // Client requests waiting for their answer: id → method and whether it asked for a next page.
  const pending = new Map<string, { method: string; paged: boolean }>();
  const listings = new Map<string, unknown[]>();
  let handshake: Handshake | undefined;
  const onMessage = (dir: 'send' | 'recv', message: Record<string, unknown>) => {
    const hasId = message.id !== undefined && message.id !== null;
    if (dir === 'send' && typeof message.method === 'string' && hasId) {
      const params = message.params as { cursor?: unknown } | undefined;
      pending.set(String(message.id), { method: message.method, paged: typeof params?.cursor === 'string' });
      return;
    }
    if (dir !== 'recv' || message.method !== undefined || !hasId) return;
    const request = pending.get(String(message.id));
    pending.delete(String(message.id));
    const result = message.result as Record<string, unknown> | undefined;
    if (!request || !result || typeof result !== 'object') return;
    if (request.method === 'initialize' || request.method === 'server/discover') handshake = readHandshake(result) ?? handshake;
    const section = SECTIONS.find((candidate) => candidate.method === request.method);
    const items = section ? result[section.list] : undefined;
    if (!section || !Array.isArray(items)) return;
    // A first page starts the listing over: the last listing of the session is the one that counts.
    const listing = request.paged ? (listings.get(section.list) ?? []) : [];
    listings.set(section.list, [...listing, ...items]);
  };
  const reader = recordingReader(
    (entry) => readEntry(entry, onMessage),
    (first) => (header = first),
  );
  for await (const chunk of stream) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  reader.end();
  const lists: Partial<Record<SectionName, unknown[]>> = {};
  for (const { list, capability } of SECTIONS) {
    const listed = listings.get(list);
    if (listed) lists[list] = listed;
    else if (handshake?.capabilities && !handshake.capabilities[capability]) lists[list] = [];
  }
  return { label, snapshot: buildSnapshot({ serverName: handshake?.serverName ?? header!.server, protocolVersion: handshake?.protocolVersion, lists }) };
}

function readEntry(entry: RecordedLine, onMessage: (dir: 'send' | 'recv', message: Record<string, unknown>) => void): void {
  if (entry.dir === 'stderr') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(recordedBytes(entry).toString('utf8'));
  } catch {
    return; // A polluting line: not a message.
  }
  // A JSON-RPC batch (2025-03-26) is its messages in order.
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (message !== null && typeof message === 'object' && !Array.isArray(message)) onMessage(entry.dir, message as Record<string, unknown>);
  }
}

function readHandshake(result: Record<string, unknown>): Handshake | undefined {
  const capabilities = result.capabilities;
  if (!capabilities || typeof capabilities !== 'object') return undefined;
  const serverInfo = result.serverInfo as { name?: unknown } | undefined;
  return {
    capabilities: capabilities as Record<string, unknown>,
    serverName: typeof serverInfo?.name === 'string' ? serverInfo.name : undefined,
    protocolVersion: typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined,
  };
}
