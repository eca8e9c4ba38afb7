import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ProbeAnswer, ProbeChannel, ProbeRequestOptions, RecordedFrame } from '../../src/conform/probe-types.js';

/**
 * A bare stdio ProbeChannel for the content checks' fixture tests (the product's channel is
 * src/conform/stdio-channel.ts): spawns a node fixture, does the 2025 handshake, records frames.
 */
export class StdioTestChannel implements ProbeChannel {
  readonly transport = 'stdio' as const;
  readonly era = 'legacy' as const;
  protocolVersion = '2025-11-25';
  readonly frames: RecordedFrame[] = [];
  fault: string | undefined;
  capabilities: Record<string, unknown> = {};
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, (answer: ProbeAnswer) => void>();
  private readonly methods = new Map<number, string>();
  private nextId = 1;
  private readonly started = Date.now();
  private line = 0;

  constructor(script: string) {
    this.child = spawn(process.execPath, [script], { stdio: 'pipe' });
    createInterface({ input: this.child.stdout }).on('line', (text) => this.receive(text));
    this.child.on('exit', () => {
      this.fault ??= 'the server exited';
      for (const resolve of this.waiting.values()) resolve({ kind: 'closed', reason: this.fault });
    });
  }

  async handshake(): Promise<Record<string, unknown>> {
    const answer = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'toolrun-test', version: '0' } });
    if (answer.kind !== 'result') throw new Error(`initialize: ${answer.kind}`);
    this.protocolVersion = String(answer.result.protocolVersion);
    this.capabilities = (answer.result.capabilities ?? {}) as Record<string, unknown>;
    await this.notify('notifications/initialized');
    return answer.result;
  }

  private record(direction: 'sent' | 'received', message: unknown, extra: Partial<RecordedFrame> = {}): RecordedFrame {
    const frame: RecordedFrame = { index: this.frames.length, direction, atMs: Date.now() - this.started, message, ...extra };
    this.frames.push(frame);
    return frame;
  }

  private receive(text: string): void {
    this.line += 1;
    const message = JSON.parse(text) as { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } };
    const answers = typeof message.id === 'number' ? this.methods.get(message.id) : undefined;
    const frame = this.record('received', message, { line: this.line, ...(answers ? { answers } : {}) });
    if (typeof message.id !== 'number') return;
    const resolve = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (message.error) resolve?.({ kind: 'error', error: message.error, frame });
    else resolve?.({ kind: 'result', result: message.result ?? {}, frame });
  }

  request(method: string, params?: Record<string, unknown>, options?: ProbeRequestOptions): Promise<ProbeAnswer> {
    return this.start(method, params, options).answer;
  }

  start(method: string, params?: Record<string, unknown>, options: ProbeRequestOptions = {}): { id: number; answer: Promise<ProbeAnswer> } {
    const id = this.nextId++;
    const sentParams = options.progressToken === undefined ? params : { ...params, _meta: { progressToken: options.progressToken } };
    const message = { jsonrpc: '2.0', id, method, ...(sentParams ? { params: sentParams } : {}) };
    this.methods.set(id, method);
    this.record('sent', message);
    const timeoutMs = options.timeoutMs ?? 2000;
    const answer = new Promise<ProbeAnswer>((resolve) => {
      this.waiting.set(id, resolve);
      setTimeout(() => {
        this.waiting.delete(id);
        resolve({ kind: 'timeout', afterMs: timeoutMs });
      }, timeoutMs).unref();
    });
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return { id, answer };
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const message = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
    this.record('sent', message);
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }

  framesFrom(fromIndex: number): RecordedFrame[] {
    return this.frames.slice(fromIndex);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
    });
  }
}
