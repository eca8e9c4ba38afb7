import type { StdioServerSpec } from '../config/resolve-server.js';
import type { ShutdownOutcome } from '../process/exit-info.js';
import { LineSplitter, type RawLine } from '../process/line-splitter.js';
import { ServerProcess } from '../process/server-process.js';
import { serverEnvironment } from '../process/launch-environment.js';
import type { ProbeWire, WireExtra } from './probe-channel.js';
import { maskThenCut } from '../secrets/mask-secrets.js';
import { serverCallerEnv } from '../run-environment.js';

/**
 * A stdio server under test: its stdout read line by line exactly as the SDK frames it, every line
 * kept (JSON-RPC or not, for the purity check), its stderr kept for evidence. The process is
 * toolrun's usual ServerProcess: its own group, never outliving toolrun.
 */
export class StdioWire implements ProbeWire {
  readonly transport = 'stdio' as const;
  onMessage?: (message: unknown, extra: WireExtra) => void;
  onClose?: (reason: string) => void;
  /** Every stdout line that is not a JSON-RPC message, with its number (the purity check). */
  readonly pollution: { line: number; text: string; reason: string }[] = [];
  stderrTail = '';
  #reading = true;
  #shutdown: Promise<ShutdownOutcome> | undefined;

  private constructor(readonly server: ServerProcess) {
    const splitter = new LineSplitter((line) => this.#line(line));
    server.stdout.on('data', (chunk: Buffer) => {
      if (this.#reading) splitter.push(chunk);
    });
    server.stdout.on('end', () => splitter.end());
    server.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4000);
    });
    void server.exited.then((exit) => {
      if (this.#shutdown) return;
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
      const stderrLine = this.stderrTail.trim().split('\n').at(-1);
      // Every stdout line is read before the end is announced.
      void server.drained().then(() => this.onClose?.(`the server ${how}${stderrLine ? ` (stderr: ${maskThenCut(stderrLine, 160)})` : ''}`));
    });
  }

  /** Starts the server; rejects with toolrun's SpawnError when it cannot. */
  static async start(spec: StdioServerSpec, graceMs: number): Promise<StdioWire> {
    const server = await ServerProcess.start({
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      env: serverEnvironment(spec, serverCallerEnv()),
      shutdownGraceMs: graceMs,
      // The shutdown check judges the server: it gets the whole grace after stdin closes.
      stdinCloseWait: 'full',
    });
    return new StdioWire(server);
  }

  async send(message: Record<string, unknown>): Promise<void> {
    const { stdin } = this.server;
    if (this.server.exitInfo || stdin.destroyed || this.#shutdown) throw new Error('the server has exited');
    if (!stdin.write(`${JSON.stringify(message)}\n`)) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Stops handing lines over; stdout is still drained (and dropped), so a flooding server can still exit when asked. */
  stopReading(): void {
    this.#reading = false;
  }

  /** The shutdown ladder; its outcome says whether the server left when stdin closed (SPEC §8). */
  shutdown(): Promise<ShutdownOutcome> {
    this.#shutdown ??= this.server.shutdown();
    return this.#shutdown;
  }

  async close(): Promise<void> {
    await this.shutdown();
  }

  #line(line: RawLine): void {
    if (!this.#reading) return;
    const text = line.bytes.toString('utf8').replace(/\r$/, '');
    if (line.oversize) return this.#polluted(line, text, `a line of ${line.length} bytes, over the 10 MB limit`);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.#polluted(line, text, text.trim() === '' ? 'an empty line' : 'not JSON');
    }
    if ((message as { jsonrpc?: unknown } | null)?.jsonrpc !== '2.0') return this.#polluted(line, text, 'JSON, but not a JSON-RPC 2.0 message', message);
    this.onMessage?.(message, { line: line.lineNumber, bytes: line.length });
  }

  #polluted(line: RawLine, text: string, reason: string, parsed?: unknown): void {
    if (this.pollution.length < 200) this.pollution.push({ line: line.lineNumber, text: maskThenCut(text, 200), reason });
    this.onMessage?.(parsed, { line: line.lineNumber, raw: text, bytes: line.length });
  }
}
