import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PROTOCOL_VERSION_META_KEY } from '../../protocol/protocol-era.js';
import { withTraceContext, type NetworkTarget, type RequestOutcome, type RequestSpan } from '../../trace/run-trace.js';

const PROBE_ID_PREFIX = 'toolrun-discover-';

export interface ProgressParams {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A transport shared by toolrun's era probe and the SDK client that follows it (v1 for the legacy
 * era, v2 for the modern one). It is started once (the client's own start() is then a no-op), its
 * probe answers go to the probe and never to the client (a late answer to a probe that timed out
 * would otherwise look like an answer to an unknown request), and a pinned legacy revision is what
 * `initialize` asks for (the v1 SDK always asks for its latest).
 */
export class NegotiatingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * Set for a 2026-07-28 connection: a result without `resultType` is complete (SEP-2322: the client
   * MUST assume so), but the v2 client refuses one; the default is filled in before it sees it.
   */
  completeResultsByDefault = false;
  /** Set to ask `initialize` for this revision instead of the SDK's latest. */
  initializeVersion: string | undefined;
  #started: Promise<void> | undefined;
  #probes = new Map<string, (message: JSONRPCMessage) => void>();
  #nextProbe = 0;
  #progress = new Map<string, (params: ProgressParams) => void>();
  #nextProgress = 0;
  /** tools/call requests sent with a watched progress token, by id: their answer may be a task. */
  #watchedCalls = new Map<string | number, string>();
  #createdTasks = new Map<string, Record<string, unknown>>();
  /** Set once the inner transport closed (the server exited): a probe sent now or pending can never be answered. */
  #closed: Error | undefined;
  readonly #probeFailures = new Set<(error: Error) => void>();
  /** Where requests go, for their spans (set by openClient). */
  networkTarget: NetworkTarget | undefined;
  /** The span of each request sent and not yet answered (with --otlp), by id. */
  readonly #spans = new Map<string | number, RequestSpan>();

  constructor(readonly inner: Transport) {
    inner.onmessage = (message) => {
      const id = (message as { id?: unknown }).id;
      if (id !== undefined && !('method' in message)) this.#endSpan(id as string | number, message as RequestOutcome);
      if (typeof id === 'string' && id.startsWith(PROBE_ID_PREFIX)) {
        this.#probes.get(id)?.(message);
        return;
      }
      if (id !== undefined && this.#watchedCalls.has(id as string | number)) {
        const token = this.#watchedCalls.get(id as string | number)!;
        this.#watchedCalls.delete(id as string | number);
        const result = (message as { result?: { resultType?: unknown } }).result;
        if (result?.resultType === 'task' && this.#progress.has(token)) this.#createdTasks.set(token, result);
      }
      const result = (message as { result?: unknown }).result;
      if (this.completeResultsByDefault && typeof result === 'object' && result !== null && !('resultType' in result)) {
        message = { ...message, result: { ...result, resultType: 'complete' } } as typeof message;
      }
      if ((message as { method?: string }).method === 'notifications/progress') {
        const params = (message as { params?: { progressToken?: unknown } }).params ?? {};
        const watcher = this.#progress.get(params.progressToken as string);
        if (watcher) return watcher(params as ProgressParams);
      }
      this.onmessage?.(message);
    };
    inner.onclose = () => {
      // A server that exits ends the probe at once, not after the probe's silence (issue #19 item 1):
      // the attempt then reports the exit, with the stderr that says why.
      this.#closed ??= Object.assign(new Error('Connection closed'), { code: -32000 });
      for (const id of [...this.#spans.keys()]) this.#endSpan(id, { error: { code: 'connection_closed', message: 'Connection closed' } });
      for (const fail of this.#probeFailures) fail(this.#closed);
      this.#probeFailures.clear();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return (this.#started ??= this.inner.start());
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.initializeVersion && (message as { method?: string }).method === 'initialize') {
      const request = message as { params: { protocolVersion?: string } };
      message = { ...request, params: { ...request.params, protocolVersion: this.initializeVersion } } as unknown as JSONRPCMessage;
    }
    const call = message as { id?: string | number; method?: string; params?: { _meta?: { progressToken?: unknown } } };
    const token = call.params?._meta?.progressToken;
    if (call.method === 'tools/call' && call.id !== undefined && typeof token === 'string' && this.#progress.has(token)) this.#watchedCalls.set(call.id, token);
    return this.inner.send(this.#traced(message), options);
  }

  /** The message with trace context in its `_meta` (every request toolrun sends: trace/run-trace.ts); its span kept until answered. */
  #traced(message: JSONRPCMessage): JSONRPCMessage {
    // 2026-07-28 names the revision in every request's _meta (the v2 client sets it); the 2025 family negotiated it once.
    const declared = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.[PROTOCOL_VERSION_META_KEY];
    const version = typeof declared === 'string' ? declared : (this.negotiatedVersion ?? (this.inner as { protocolVersion?: string }).protocolVersion);
    const traced = withTraceContext(message, { sessionId: this.inner.sessionId, protocolVersion: version, network: this.networkTarget });
    const id = (message as { id?: string | number }).id;
    if (traced.span && id !== undefined) this.#spans.set(id, traced.span);
    return traced.message;
  }

  #endSpan(id: string | number, outcome: RequestOutcome): void {
    const span = this.#spans.get(id);
    if (!span) return;
    this.#spans.delete(id);
    span.end(outcome);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The revision the v1 client's `initialize` settled on. */
  negotiatedVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.negotiatedVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  /**
   * A progress token for one request, its updates handed over as they arrive. The SDKs dispatch
   * notifications a tick later than responses, so the updates sent just before a result would be
   * lost there; here they are seen in wire order.
   */
  watchProgress(handler: (params: ProgressParams) => void): { token: string; dispose(): void; createdTask(): Record<string, unknown> | undefined } {
    const token = `toolrun-progress-${++this.#nextProgress}`;
    this.#progress.set(token, handler);
    return {
      token,
      dispose: () => {
        this.#progress.delete(token);
        this.#createdTasks.delete(token);
      },
      // The v2 client rejects a result whose resultType it does not know ("task", of the tasks
      // extension) and keeps nothing of it: the task it named is kept here, by the call's token.
      createdTask: () => this.#createdTasks.get(token),
    };
  }

  /**
   * Sends one request of toolrun's own (the era probe) and resolves with the answer. The id stays
   * reserved afterwards: a late answer is dropped, not taken for the client's.
   */
  async request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<JSONRPCMessage> {
    await this.start();
    const id = `${PROBE_ID_PREFIX}${++this.#nextProbe}`;
    return new Promise<JSONRPCMessage>((resolve, reject) => {
      const settle = () => {
        signal.removeEventListener('abort', onAbort);
        this.#probeFailures.delete(onClose);
        this.#probes.set(id, () => {});
      };
      const onAbort = () => {
        settle();
        reject(signal.reason);
      };
      const onClose = (error: Error) => {
        settle();
        reject(error);
      };
      if (signal.aborted) return onAbort();
      if (this.#closed) return onClose(this.#closed);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#probeFailures.add(onClose);
      this.#probes.set(id, (message) => {
        settle();
        resolve(message);
      });
      this.inner.send(this.#traced({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage)).catch((error: unknown) => {
        settle();
        reject(error);
      });
    });
  }
}
