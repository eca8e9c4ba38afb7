import type { ServerResponse } from 'node:http';

/** Sessions at once: each holds a server instance; more is a leak or a flood. */
export const MAX_SESSIONS = 1000;
/** A session without a request for this long is ended. */
export const IDLE_MS = 30 * 60_000;
/** A session whose client never finished the handshake (no notifications/initialized) is ended after this. */
export const HANDSHAKE_MS = 5_000;

type EndReason = 'handshake' | 'evicted' | 'idle' | 'unread';

/**
 * The sessions of one of toolrun's HTTP endpoints (`serve --http`, `mcp mock --http`), kept within
 * bounds: a session whose client never finished the handshake ends after `handshakeMs`; one without a
 * request for `idleMs` ends; when `max` are open, the least recently used one with nothing in flight
 * makes room for a new client (a flood of idle sessions must not lock everyone out until they
 * expire), and only when every session is busy is a client refused. `end` ends a session the way its
 * endpoint does; the endpoint calls `forget` once it is gone (as it does for a DELETE).
 */
export class SessionTable<T> {
  readonly max: number;
  readonly #sessions = new Map<string, { value: T; lastSeen: number; inFlight: number; handshaken: boolean }>();
  readonly #ended = new Map<EndReason, number>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    private readonly options: {
      max?: number;
      idleMs?: number;
      handshakeMs?: number;
      /** Ends a session: the endpoint's own way (its transport closed, its state dropped). */
      end: (id: string, value: T) => void | Promise<void>;
      /** Says why a session was ended: the first three of each reason only, so a flood cannot flood stderr too. */
      say?: (message: string) => void;
    },
  ) {
    this.max = options.max ?? MAX_SESSIONS;
    const idleMs = options.idleMs ?? IDLE_MS;
    this.#sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const [id, session] of this.#sessions)
          if (session.inFlight === 0 && now - session.lastSeen > idleMs)
            void this.end(id, 'idle', `ended session ${id}: no request for ${idleMs >= 60_000 ? `${Math.round(idleMs / 60_000)} minutes` : `${idleMs / 1000} s`}`);
      },
      Math.min(60_000, idleMs),
    ).unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * A new session; unless `handshaken` is called within handshakeMs, it is ended. The clock starts once
   * `answering` (the answer to its initialize) is sent: a server slow to answer is not its client's fault.
   */
  add(id: string, value: T, answering?: ServerResponse): void {
    this.#sessions.set(id, { value, lastSeen: Date.now(), inFlight: 0, handshaken: false });
    const handshakeMs = this.options.handshakeMs ?? HANDSHAKE_MS;
    const startClock = () =>
      setTimeout(() => {
        const session = this.#sessions.get(id);
        if (session && session.value === value && !session.handshaken) void this.end(id, 'handshake', `ended session ${id}: its client did not finish the handshake within ${handshakeMs / 1000} s`);
      }, handshakeMs).unref();
    if (answering && !answering.writableFinished) answering.once('close', startClock);
    else startClock();
  }

  handshaken(id: string): void {
    const session = this.#sessions.get(id);
    if (session) session.handshaken = true;
  }

  /** The session, used now: it is in flight until `response` ends (an event stream held open keeps it busy). */
  use(id: string, response: ServerResponse): T | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    session.lastSeen = Date.now();
    session.inFlight += 1;
    response.once('close', () => {
      session.inFlight -= 1;
      session.lastSeen = Date.now();
    });
    return session.value;
  }

  /** Room for one more session: true at once below `max`, else after ending the least recently used idle one; false when all are busy. */
  async makeRoom(): Promise<boolean> {
    if (this.#sessions.size < this.max) return true;
    let oldest: string | undefined;
    for (const [id, session] of this.#sessions) if (session.inFlight === 0 && (oldest === undefined || session.lastSeen < this.#sessions.get(oldest)!.lastSeen)) oldest = id;
    if (oldest === undefined) return false;
    await this.end(oldest, 'evicted', `ended session ${oldest}, idle the longest, to make room for a new client (${this.max} at most)`);
    return true;
  }

  /** The session is gone (its client ended it, or its transport closed): false when there was none. */
  forget(id: string): boolean {
    return this.#sessions.delete(id);
  }

  async end(id: string, reason: EndReason, message: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    const count = (this.#ended.get(reason) ?? 0) + 1;
    this.#ended.set(reason, count);
    if (count <= 3) this.options.say?.(`${message}${count === 3 ? ' (further sessions ended this way are not said)' : ''}`);
    await Promise.resolve(this.options.end(id, session.value)).catch(() => {});
  }

  /** Every session ended (without a word: the endpoint is closing). */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions];
    this.#sessions.clear();
    await Promise.all(sessions.map(([id, session]) => Promise.resolve(this.options.end(id, session.value)).catch(() => {})));
  }
}
