import type { Readable } from 'node:stream';
import { LineSplitter } from '../process/line-splitter.js';
import { exitCodeOf } from '../process/exit-info.js';
import { PATIENT_GRACE_MS, ServerProcess, SpawnError } from '../process/server-process.js';
import { compareMessages, type Difference } from './compare-messages.js';
import { recordedBytes, recordingReader, type RecordedLine } from './recording.js';

type Message = { id?: string | number | null; method?: string; result?: unknown; error?: unknown; params?: unknown };

export interface ReplayedRequest {
  method: string;
  id: string | number;
  same: boolean;
  differences: Difference[];
  /** No answer within the timeout, or the server exited first. */
  unanswered?: string;
  /**
   * Set on a request the server sent the client (elicitation, sampling, roots): how the replay
   * answered it — as recorded (same), or not (no recorded answer, or a recorded one never asked for).
   */
  server_request?: string;
}

export interface ReplayOutcome {
  requests: ReplayedRequest[];
  /** The server could not be started, or exited before the replay ended. */
  unreachable?: string;
}

/** A recording's client side, in order, and what the server answered each request then. */
interface Script {
  sent: Message[];
  recordedAnswers: Map<string, Message>;
  /** The client's recorded answers to server requests, per method, in order. */
  clientAnswers: Map<string, Message[]>;
}

export async function readScript(stream: Readable): Promise<Script> {
  const entries: RecordedLine[] = [];
  const reader = recordingReader((entry) => entries.push(entry));
  for await (const chunk of stream) reader.push(chunk as Buffer);
  reader.end();
  const parse = (entry: RecordedLine): Message | undefined => {
    try {
      return JSON.parse(recordedBytes(entry).toString('utf8')) as Message;
    } catch {
      return undefined;
    }
  };
  const script: Script = { sent: [], recordedAnswers: new Map(), clientAnswers: new Map() };
  const serverRequests = new Map<string, string>();
  for (const entry of entries) {
    const message = entry.dir === 'stderr' ? undefined : parse(entry);
    if (!message) continue;
    const hasId = message.id !== undefined && message.id !== null;
    if (entry.dir === 'recv' && message.method && hasId) serverRequests.set(String(message.id), message.method);
    else if (entry.dir === 'recv' && hasId) script.recordedAnswers.set(String(message.id), message);
    else if (entry.dir === 'send' && !message.method && hasId) {
      const method = serverRequests.get(String(message.id)) ?? '';
      script.clientAnswers.set(method, [...(script.clientAnswers.get(method) ?? []), message]);
    } else if (entry.dir === 'send') script.sent.push(message);
  }
  return script;
}

/**
 * `mcp replay` (SPEC §11): starts the server fresh, sends the recorded client messages in order
 * (answering the server's own requests as the client did), and compares each response with the
 * recorded one (compare-messages.ts says what does not count).
 */
export async function replay(
  script: Script,
  target: { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv },
  options: { ignore: string[]; timeoutMs: number; signal: AbortSignal },
): Promise<ReplayOutcome> {
  let server: ServerProcess;
  try {
    server = await ServerProcess.start({ ...target, shutdownGraceMs: PATIENT_GRACE_MS });
  } catch (error) {
    if (!(error instanceof SpawnError)) throw error;
    return { requests: [], unreachable: error.message };
  }
  const outcome: ReplayOutcome = { requests: [] };
  const waiting = new Map<string, (message: Message) => void>();
  const answered = new Map<string, number>();
  const send = (message: Message) => server.stdin.write(`${JSON.stringify(message)}\n`);
  const splitter = new LineSplitter((line) => {
    let message: Message;
    try {
      message = JSON.parse(line.bytes.toString('utf8')) as Message;
    } catch {
      return; // not a message: check-stdout's business, not replay's
    }
    const hasId = message.id !== undefined && message.id !== null;
    if (message.method && hasId) {
      // The server asks the client something: the recorded client answered the same way.
      const index = answered.get(message.method) ?? 0;
      answered.set(message.method, index + 1);
      // Matched by method and order: the ids are the server's own, new each run.
      const answer = script.clientAnswers.get(message.method)?.[index];
      send(answer ? { ...answer, id: message.id } : ({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `the recording has no answer to ${message.method}` } } as Message));
      outcome.requests.push({
        method: message.method,
        id: message.id!,
        same: answer !== undefined,
        differences: [],
        server_request: answer ? 'answered as recorded' : `the server asked ${message.method} (its ${ordinal(index + 1)}), which the recording has no answer to; it got an error reply`,
      });
    } else if (hasId) waiting.get(String(message.id))?.(message);
  });
  server.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
  server.stderr.resume();
  let exited = false;
  const gone = server.exited.then((info) => {
    exited = true;
    return `the server exited (code ${exitCodeOf(info)})`;
  });
  try {
    for (const message of script.sent) {
      if (options.signal.aborted) break;
      const hasId = message.id !== undefined && message.id !== null;
      if (!hasId || !message.method) {
        send(message);
        continue;
      }
      const id = String(message.id);
      const answer = new Promise<Message>((resolve) => waiting.set(id, resolve));
      send(message);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${options.timeoutMs} ms`), options.timeoutMs)));
      const result = await Promise.race([answer, timeout, gone]);
      clearTimeout(timer);
      waiting.delete(id);
      if (typeof result === 'string') {
        outcome.requests.push({ method: message.method, id: message.id!, same: false, differences: [], unanswered: result });
        if (exited) return { ...outcome, unreachable: result };
        continue;
      }
      const recorded = script.recordedAnswers.get(id);
      const differences = recorded ? compareMessages(recorded, result, options.ignore) : [{ path: '(the whole message)', recorded: undefined, now: result }];
      outcome.requests.push({ method: message.method, id: message.id!, same: differences.length === 0, differences });
    }
    // A recorded answer the server never asked for: the server no longer asks what it did.
    for (const [method, answers] of script.clientAnswers) {
      const asked = answered.get(method) ?? 0;
      if (!method || answers.length <= asked) continue;
      const plural = answers.length === 1 ? '' : 's';
      outcome.requests.push({
        method,
        id: answers[asked]!.id!,
        same: false,
        differences: [],
        server_request: `the recording answered ${answers.length} ${method} request${plural}, the server asked ${asked}`,
      });
    }
    return outcome;
  } finally {
    await server.shutdown();
  }
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}
