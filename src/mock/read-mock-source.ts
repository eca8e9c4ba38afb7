import { readFileSync } from 'node:fs';
import { MAX_CONFIG_DEPTH } from '../config/parse-jsonc.js';
import { UsageError } from '../errors.js';
import { recordedBytes, recordingReader, isRecordingStart, type RecordedLine } from '../record/recording.js';
import { apiListingOf, fileStem } from '../snapshot/read-snapshot.js';
import type { ApiSnapshot } from '../snapshot/snapshot-types.js';
import type { MockBook, RecordedExchange } from './mock-book.js';

/** Larger than any recording worth serving from memory; a bigger one is refused with the reason. */
const MAX_SOURCE_BYTES = 256 << 20;

type Message = { id?: string | number | null; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string; data?: unknown } };

/**
 * SOURCE as a mock: a recording (its first line says so: the client's requests paired with the
 * server's answers by id), a snapshot (`toolrunSnapshot`) or a plain tools/list result, or a toolrun config whose `tools` have
 * mock implementations (served as a server offering those tools, answering their mock_response).
 */
export function readMockSource(path: string, label: string): MockBook {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${label}: no such file; give a recording (tap --record, check-stdout --save), a snapshot (mcp snapshot) or a config with mock tools`);
    if (code === 'EISDIR') throw new UsageError(`${label} is a folder, not a recording or a snapshot`);
    throw new UsageError(`${label}: not readable (${code ?? (error as Error).message})`);
  }
  if (bytes.length > MAX_SOURCE_BYTES) throw new UsageError(`${label}: ${bytes.length} bytes; a mock serves sources of up to ${MAX_SOURCE_BYTES >> 20} MB`);
  if (isRecordingStart(bytes.subarray(0, 4096))) return fromRecording(bytes, label);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`${label}: neither a recording nor JSON (${(error as Error).message})`);
  }
  assertShallow(parsed, label);
  // A snapshot, or a plain tools/list result (the other lists then empty): the reader mcp lint and mcp diff use.
  const listing = apiListingOf(parsed, fileStem(path));
  if (listing) return { kind: 'snapshot', label, api: { resources: [], resourceTemplates: [], prompts: [], ...listing, tools: listing.tools ?? [] }, mockResults: new Map() };
  return fromConfig(parsed, label);
}

function fromRecording(bytes: Buffer, label: string): MockBook {
  const entries: RecordedLine[] = [];
  const reader = recordingReader((entry) => entries.push(entry));
  reader.push(bytes);
  reader.end();
  const requests = new Map<string, Message>();
  const exchanges: RecordedExchange[] = [];
  for (const entry of entries) {
    if (entry.dir === 'stderr') continue;
    let message: Message;
    try {
      message = JSON.parse(recordedBytes(entry).toString('utf8')) as Message;
    } catch {
      continue; // stdout pollution in the recording: not an answer
    }
    assertShallow(message, `${label}: a recorded message`);
    const id = message.id === undefined || message.id === null ? undefined : String(message.id);
    if (id === undefined) continue;
    if (entry.dir === 'send' && message.method) requests.set(id, message);
    else if (entry.dir === 'recv' && !message.method) {
      const request = requests.get(id);
      if (!request) continue;
      requests.delete(id);
      exchanges.push({ method: request.method!, params: request.params, answer: message.error ? { error: message.error } : { result: message.result } });
    }
  }
  if (exchanges.length === 0) throw new UsageError(`${label}: the recording holds no answered request to serve`);
  return { kind: 'recording', label, exchanges };
}

/**
 * Refuses a source nested deeper than a config may be (MAX_CONFIG_DEPTH, parse-jsonc.ts): JSON.parse
 * reads any depth, but serving the value (validating, copying, JSON.stringify) recursed until the
 * stack ran out, on every call. Walked with an explicit stack, so the check cannot overflow itself.
 */
function assertShallow(value: unknown, label: string): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > MAX_CONFIG_DEPTH) throw new UsageError(`${label}: nested deeper than ${MAX_CONFIG_DEPTH} levels; a recording, snapshot or config is never that deep`);
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}

/** A config's `tools` with `implementation: {type: "mock"}`: the tools a mock server offers, and each one's answer. */
function fromConfig(parsed: unknown, label: string): MockBook {
  const tools = (parsed as { tools?: unknown }).tools;
  const mocks = Array.isArray(tools) ? tools.filter((tool) => (tool as { implementation?: { type?: string } })?.implementation?.type === 'mock') : [];
  if (mocks.length === 0) throw new UsageError(`${label}: not a recording, a snapshot, a tools/list result, or a config with mock tools (tools with "implementation": {"type": "mock"})`);
  const api: ApiSnapshot = {
    toolrunSnapshot: 1,
    server: { name: 'toolrun-mock' },
    tools: mocks.map((tool) => {
      const { name, description, parameters } = tool as { name: string; description?: string; parameters?: Record<string, unknown> };
      return { name, description: description ?? '', inputSchema: parameters ?? { type: 'object', properties: {} } };
    }),
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  const mockResults = new Map(mocks.map((tool) => [(tool as { name: string }).name, (tool as { implementation: { mock_response?: unknown } }).implementation.mock_response]));
  return { kind: 'snapshot', label, api, mockResults };
}
