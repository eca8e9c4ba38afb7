import { readVersion } from '../version.js';
import { CLIENT_CAPABILITIES_META_KEY, modernEnvelope } from '../protocol/protocol-era.js';
import { FrameLog } from './frame-log.js';
import { withTraceContext, type RequestOutcome } from '../trace/run-trace.js';
import type { ProbeAnswer, ProbeChannel, ProbeRequestOptions, RecordedFrame } from './probe-types.js';

/** What a line or a body came with: its stdout line, its raw text when it is not JSON, its size. */
export interface WireExtra {
  line?: number;
  raw?: string;
  bytes?: number;
  /**
   * HTTP: the id of the request whose POST this body answers. A server that could not read the
   * request answers with `id: null` (JSON-RPC §5); over HTTP that answer still belongs to the POST.
   */
  answersId?: number;
}

/**
 * The bytes under a channel: a stdio process or an HTTP endpoint. It sends one message at a time
 * and hands back every message (or broken line) the server sends, in order of arrival.
 */
export interface ProbeWire {
  readonly transport: 'stdio' | 'http' | 'sse';
  /** Rejects when the message could not be delivered (an HTTP refusal that is not JSON-RPC, a dead process). */
  send(message: Record<string, unknown>, context: { method?: string; protocolVersion: string; era: 'legacy' | 'modern' }): Promise<void>;
  onMessage?: (message: unknown, extra: WireExtra) => void;
  onClose?: (reason: string) => void;
  /** Stops reading (a flood): what is still in flight is dropped. */
  stopReading(): void;
  /** HTTP: closes the response stream of request `id` (2026-07-28's way to cancel it). */
  abortRequest?(id: number): void;
  close(): Promise<void>;
}

/** A response to an id toolrun never sent, or a second response to one: the framing check's evidence. */
export interface StrayResponse {
  frame: RecordedFrame;
  reason: string;
}

interface Pending {
  method: string;
  settle: (answer: ProbeAnswer) => void;
}

/** How a request's span ends (with --otlp): its result, its error, or why none came. */
function spanOutcome(answer: ProbeAnswer): RequestOutcome {
  if (answer.kind === 'result') return { result: answer.result };
  if (answer.kind === 'error') return { error: answer.error };
  return { error: { code: answer.kind === 'timeout' ? 'timeout' : 'connection_closed', message: answer.kind === 'timeout' ? `no answer within ${answer.afterMs} ms` : answer.reason } };
}

/** The ProbeChannel over any wire: ids, answers matched to requests, the era's envelope, a bounded log. */
export class WireProbeChannel implements ProbeChannel {
  readonly log = new FrameLog();
  readonly strays: StrayResponse[] = [];
  protocolVersion: string;
  fault: string | undefined;
  readonly #wire: ProbeWire;
  readonly #timeoutMs: number;
  readonly #pending = new Map<number, Pending>();
  /** Requests answered or given up on, by id, so a late or repeated answer is told from an unknown one. */
  readonly #done = new Map<number, 'answered' | 'timed out'>();
  #nextId = 1;
  /** Requests cancelled by closing their stream: the closed stream is not their answer. */
  readonly #aborted = new Set<number>();
  /** Tool calls toolrun gave up on at --timeout and cancelled: the server may still be running them. */
  givenUpCalls = 0;
  /** The client capabilities this channel claims (initialize, or 2026-07-28's envelope): none but for the apps check's channel. */
  clientCapabilities: Record<string, unknown> = {};

  constructor(
    wire: ProbeWire,
    public era: 'legacy' | 'modern',
    protocolVersion: string,
    timeoutMs: number,
  ) {
    this.#wire = wire;
    this.protocolVersion = protocolVersion;
    this.#timeoutMs = timeoutMs;
    wire.onMessage = (message, extra) => this.#receive(message, extra);
    wire.onClose = (reason) => this.#end(reason);
  }

  get transport() {
    return this.#wire.transport;
  }

  get frames(): readonly RecordedFrame[] {
    return this.log.frames;
  }

  framesFrom(fromIndex: number): RecordedFrame[] {
    return this.log.frames.slice(fromIndex);
  }

  request(method: string, params?: Record<string, unknown>, options?: ProbeRequestOptions): Promise<ProbeAnswer> {
    return this.start(method, params, options).answer;
  }

  start(method: string, params: Record<string, unknown> = {}, options: ProbeRequestOptions = {}): { id: number; answer: Promise<ProbeAnswer> } {
    const id = this.#nextId++;
    const version = options.protocolVersion ?? this.protocolVersion;
    // Trace context in every request, as toolrun's client sends it (trace/run-trace.ts).
    const { message, span } = withTraceContext({ jsonrpc: '2.0', id, method, params: this.#withMeta(params, options, version) });
    const answer = new Promise<ProbeAnswer>((resolve) => {
      if (this.fault) return resolve({ kind: 'closed', reason: this.fault });
      const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        this.#done.set(id, 'timed out');
        if (method === 'tools/call') this.givenUpCalls++;
        // As a client SHOULD (basic/utilities/cancellation): a request given up on is cancelled, so
        // the server can stop the work (and is not judged later for work toolrun left it doing).
        void this.cancel(id, `toolrun conform gave up after ${timeoutMs} ms`);
        span?.end(spanOutcome({ kind: 'timeout', afterMs: timeoutMs }));
        resolve({ kind: 'timeout', afterMs: timeoutMs });
      }, timeoutMs);
      this.#pending.set(id, {
        method,
        settle: (outcome) => {
          clearTimeout(timer);
          span?.end(spanOutcome(outcome));
          this.#pending.delete(id);
          resolve(outcome);
        },
      });
      this.log.add('sent', message);
      this.#wire.send(message, { method, protocolVersion: version, era: this.era }).catch((error: unknown) => {
        if (this.#aborted.has(id)) return;
        this.#done.set(id, 'answered');
        this.#pending.get(id)?.settle({ kind: 'closed', reason: error instanceof Error ? error.message : String(error) });
      });
    });
    return { id, answer };
  }

  /**
   * Cancels request `id` the way the era and transport say: 2026-07-28 over Streamable HTTP closes
   * the request's response stream; everywhere else `notifications/cancelled` names it.
   */
  async cancel(id: number, reason: string): Promise<void> {
    if (this.era === 'modern' && this.#wire.abortRequest) {
      this.#aborted.add(id);
      this.#wire.abortRequest(id);
      return;
    }
    await this.notify('notifications/cancelled', { requestId: id, reason });
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.fault) return;
    const message = params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method };
    this.log.add('sent', message);
    await this.#wire.send(message, { method, protocolVersion: this.protocolVersion, era: this.era }).catch(() => {});
  }

  async close(): Promise<void> {
    await this.#wire.close();
    this.#end(this.fault ?? 'the channel was closed');
  }

  /** The era's `_meta`: 2026-07-28's envelope on every request, a progress token where asked. */
  #withMeta(params: Record<string, unknown>, options: ProbeRequestOptions, version: string): Record<string, unknown> {
    const given = (params._meta ?? {}) as Record<string, unknown>;
    const envelope = this.era === 'modern' && !options.bare ? modernEnvelope(version, readVersion()) : {};
    if (this.era === 'modern' && !options.bare && Object.keys(this.clientCapabilities).length > 0) envelope[CLIENT_CAPABILITIES_META_KEY] = this.clientCapabilities;
    const meta = { ...envelope, ...given };
    if (options.progressToken !== undefined) meta.progressToken = options.progressToken;
    return Object.keys(meta).length > 0 ? { ...params, _meta: meta } : params;
  }

  #receive(message: unknown, extra: WireExtra): void {
    const shape = (message ?? {}) as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
    const isResponse = message !== undefined && typeof message === 'object' && shape.method === undefined && ('result' in shape || 'error' in shape);
    const id = isResponse && shape.id === null && extra.answersId !== undefined ? extra.answersId : shape.id;
    const pending = isResponse && typeof id === 'number' ? this.#pending.get(id) : undefined;
    const frame = this.log.add('received', message, { ...extra, answers: pending?.method });
    if (!frame) {
      // Past the bound: stop reading, and let every waiting request end now rather than at its timeout.
      this.#wire.stopReading();
      this.#end(this.log.overflow!);
      return;
    }
    if (isResponse) {
      if (pending) {
        this.#done.set(id as number, 'answered');
        const error = shape.error as { code: number; message: string; data?: unknown } | undefined;
        pending.settle(error !== undefined ? { kind: 'error', error, frame } : { kind: 'result', result: (shape.result ?? {}) as Record<string, unknown>, frame });
        return;
      }
      const earlier = typeof shape.id === 'number' ? this.#done.get(shape.id) : undefined;
      if (earlier === 'timed out') return; // a late answer: the check that waited already judged it
      this.strays.push({ frame, reason: earlier ? `a second answer to request ${String(shape.id)}` : `an answer to id ${JSON.stringify(shape.id)}, which toolrun never sent` });
      return;
    }
    if (typeof shape.method === 'string' && shape.id !== undefined) void this.#answerServerRequest(shape.id, shape.method);
  }

  /**
   * conform advertises no client capability: a server's request gets -32601, except ping, which
   * every party answers (basic/utilities/ping).
   */
  async #answerServerRequest(id: unknown, method: string): Promise<void> {
    const answer = method === 'ping' ? { jsonrpc: '2.0', id, result: {} } : { jsonrpc: '2.0', id, error: { code: -32601, message: `toolrun mcp conform does not answer ${method}` } };
    this.log.add('sent', answer);
    await this.#wire.send(answer, { protocolVersion: this.protocolVersion, era: this.era }).catch(() => {});
  }

  #end(reason: string): void {
    this.fault ??= reason;
    for (const pending of [...this.#pending.values()]) pending.settle({ kind: 'closed', reason });
  }
}
