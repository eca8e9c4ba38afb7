import type { ConformContext } from '../../src/conform/check-types.js';
import { memoizedListAll } from '../../src/conform/list-all.js';
import type { ProbeAnswer, ProbeChannel, ProbeRequestOptions, RecordedFrame } from '../../src/conform/probe-types.js';

/** What a scripted handler can do besides answering: send notifications, see a cancellation. */
export interface ScriptCall {
  id: number;
  params: Record<string, unknown>;
  /** Sends a notification to the client (recorded as a received frame). */
  emit(method: string, params: Record<string, unknown>): void;
  /** Resolves when the client sends notifications/cancelled for this request. */
  cancelled: Promise<void>;
}

/** A handler's answer: a result, an error, or undefined for no answer at all. */
export type ScriptReply = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } } | undefined;
export type ScriptHandler = (params: Record<string, unknown>, call: ScriptCall) => ScriptReply | Promise<ScriptReply>;

export interface ScriptedServer {
  /** method → handler; methods not here go to `fallback` (default: -32601). */
  handlers: Record<string, ScriptHandler>;
  fallback?: ScriptHandler;
  capabilities?: Record<string, unknown>;
  era?: 'legacy' | 'modern';
  transport?: 'stdio' | 'http' | 'sse';
  protocolVersion?: string;
  /** Called for every notification the client sends. */
  onNotification?(method: string, params: Record<string, unknown>): void;
}

export const methodNotFound: ScriptHandler = (_params) => ({ error: { code: -32601, message: 'Method not found' } });

/**
 * An in-memory ProbeChannel over a scripted server: frames are recorded both ways as the real
 * channels record them (sent requests with their ids and `_meta.progressToken`, received responses
 * with `answers`, notifications, late answers after a timeout), so checks are tested on the shapes they meet.
 */
export class FakeChannel implements ProbeChannel {
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly era: 'legacy' | 'modern';
  readonly protocolVersion: string;
  readonly frames: RecordedFrame[] = [];
  fault: string | undefined;
  private nextId = 1;
  private readonly started = Date.now();
  private readonly cancellations = new Map<number, () => void>();

  constructor(
    readonly server: ScriptedServer,
    private readonly defaultTimeoutMs = 300,
  ) {
    this.transport = server.transport ?? 'stdio';
    this.era = server.era ?? 'legacy';
    this.protocolVersion = server.protocolVersion ?? (this.era === 'modern' ? '2026-07-28' : '2025-11-25');
  }

  private record(direction: 'sent' | 'received', message: unknown, answers?: string): RecordedFrame {
    const frame: RecordedFrame = { index: this.frames.length, direction, atMs: Date.now() - this.started, message, ...(answers ? { answers } : {}) };
    this.frames.push(frame);
    return frame;
  }

  request(method: string, params?: Record<string, unknown>, options?: ProbeRequestOptions): Promise<ProbeAnswer> {
    return this.start(method, params, options).answer;
  }

  start(method: string, params?: Record<string, unknown>, options: ProbeRequestOptions = {}): { id: number; answer: Promise<ProbeAnswer> } {
    const id = this.nextId++;
    let sentParams = params;
    if (options.progressToken !== undefined) sentParams = { ...params, _meta: { ...(params?._meta as object), progressToken: options.progressToken } };
    this.record('sent', { jsonrpc: '2.0', id, method, ...(sentParams === undefined ? {} : { params: sentParams }) });
    if (this.fault) return { id, answer: Promise.resolve({ kind: 'closed', reason: this.fault }) };
    let cancel!: () => void;
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    this.cancellations.set(id, cancel);
    const handler = this.server.handlers[method] ?? this.server.fallback ?? methodNotFound;
    const call: ScriptCall = {
      id,
      params: sentParams ?? {},
      cancelled,
      emit: (notification, notificationParams) => this.record('received', { jsonrpc: '2.0', method: notification, params: notificationParams }),
    };
    const reply = Promise.resolve().then(() => handler(sentParams ?? {}, call));
    const answered: Promise<ProbeAnswer | undefined> = reply.then((outcome) => {
      if (outcome === undefined) return undefined;
      const frame = this.record('received', { jsonrpc: '2.0', id, ...outcome }, method);
      return 'result' in outcome ? { kind: 'result', result: outcome.result, frame } : { kind: 'error', error: outcome.error, frame };
    });
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const timedOut = new Promise<ProbeAnswer>((resolve) => setTimeout(() => resolve({ kind: 'timeout', afterMs: timeoutMs }), timeoutMs).unref());
    const answer = Promise.race([answered.then((outcome) => outcome ?? timedOut), timedOut]);
    return { id, answer };
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    this.record('sent', { jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
    if (method === 'notifications/cancelled') this.cancellations.get(Number(params?.requestId))?.();
    this.server.onNotification?.(method, params ?? {});
    return Promise.resolve();
  }

  framesFrom(fromIndex: number): RecordedFrame[] {
    return this.frames.slice(fromIndex);
  }

  close(): Promise<void> {
    this.fault ??= 'closed by the run';
    return Promise.resolve();
  }
}

/** A ConformContext for a fake channel, with the real memoized listAll; overrides win. */
export function contextFor(channel: FakeChannel, overrides: Partial<ConformContext> = {}): ConformContext {
  const timeoutMs = overrides.timeoutMs ?? 300;
  const capabilities = overrides.capabilities ?? channel.server.capabilities ?? {};
  const result = { protocolVersion: channel.protocolVersion, capabilities, serverInfo: { name: 'scripted', version: '0.0.1' } };
  return {
    channel,
    handshake: { method: channel.era === 'modern' ? 'server/discover' : 'initialize', result },
    capabilities,
    calls: [],
    callAll: false,
    timeoutMs,
    listAll: memoizedListAll(channel, timeoutMs),
    openFreshChannel: () => Promise.resolve(new FakeChannel(channel.server, timeoutMs)),
    signal: new AbortController().signal,
    ...overrides,
  };
}
