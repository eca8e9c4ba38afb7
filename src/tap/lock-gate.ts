import type { LockFilter } from '../lock/enforce.js';

/** What the gate makes of one line from the host: the bytes to send on to the server, and an answer of its own for the host. */
export interface HostLineVerdict {
  /** The line to forward (the same bytes when nothing in it is refused); undefined: nothing to forward. */
  forward?: Buffer;
  /** JSON-RPC errors for the refused calls, one line, for the host. */
  answer?: Buffer;
}

/**
 * `mcp tap --lock` (SPEC §24 enforcement, inside the host): the tap reads the messages it forwards.
 * A `tools/list` answer loses the tools the lock does not pin as they are (added since, or changed:
 * description, schemas, annotations), so the model reads only the pinned descriptions; a
 * `tools/call` to one of them is answered here with a JSON-RPC -32602 naming why, and never reaches
 * the server. Only lines that can matter are parsed (a host line naming `tools/`, a server line while
 * a list is awaited): every other line is forwarded as its bytes, untouched.
 */
export class TapLockGate {
  /** Ids (idKey) of the host's `tools/list` requests, the last MAX_LIST_IDS of them. */
  readonly #listIds = new Set<string>();
  /** Tools of the last lists that are not served, with why. */
  readonly #heldBack = new Map<string, string>();
  /** Tools of the last lists that are served: checked against the lock, so a call to them goes through. */
  readonly #served = new Set<string>();
  readonly #said = new Set<string>();

  constructor(
    readonly filter: LockFilter,
    readonly server: string,
    private readonly warn: (message: string) => void,
  ) {
    if (!filter.pins(server)) this.#sayOnce(server, `not serving ${server}'s tools: server '${server}' is not pinned in ${filter.file}; pin it with: toolrun lock ${server}`);
  }

  fromHost(line: Buffer): HostLineVerdict {
    // A host's line that names no `tools/` method (even escaped) is forwarded unread.
    if (!line.includes(TOOLS_METHOD) && !line.includes(ESCAPED_SLASH) && !line.includes(ESCAPED_CHARACTER)) return { forward: line };
    const parsed = parseJson(line);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const refused: unknown[] = [];
    const kept = messages.filter((message) => {
      if (!isObject(message)) return true;
      if (message.method === 'tools/list' && message.id !== undefined) this.#rememberList(message.id);
      if (message.method !== 'tools/call' || message.id === undefined) return true;
      const name = isObject(message.params) && typeof message.params.name === 'string' ? message.params.name : undefined;
      if (name === undefined || this.#served.has(name)) return true;
      const why = this.#heldBack.get(name) ?? this.filter.refusalOfName(this.server, name) ?? this.#notListed(name);
      refused.push({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Tool ${name} is not served (toolrun mcp tap --lock): ${why}` } });
      return false;
    });
    const answer = refused.length === 0 ? undefined : Buffer.from(JSON.stringify(Array.isArray(parsed) ? refused : refused[0]));
    if (kept.length === messages.length) return { forward: line, answer };
    if (kept.length === 0) return { answer };
    return { forward: Buffer.from(JSON.stringify(kept)), answer };
  }

  /** A server line, given with its parsed JSON (the tap's scanner parsed it already): the same bytes, or the list answer without the tools not served. */
  fromServer(line: Buffer, value: unknown): Buffer {
    if (this.#listIds.size === 0 || value === undefined) return line;
    const messages = Array.isArray(value) ? value : [value];
    let changed = false;
    const shown = messages.map((message) => {
      // Every answer to a list id is filtered, a second one too: the server is the party not trusted.
      if (!isObject(message) || message.method !== undefined || !this.#listIds.has(idKey(message.id)) || !isObject(message.result) || !Array.isArray(message.result.tools)) return message;
      const tools = message.result.tools.filter((tool) => this.#serves(tool));
      if (tools.length === message.result.tools.length) return message;
      changed = true;
      return { ...message, result: { ...message.result, tools } };
    });
    if (!changed) return line;
    return Buffer.from(JSON.stringify(Array.isArray(value) ? shown : shown[0]));
  }

  #serves(tool: unknown): boolean {
    if (!isObject(tool) || typeof tool.name !== 'string') return true;
    const why = this.filter.refusal(this.server, tool as { name: string });
    if (why === undefined) {
      this.#heldBack.delete(tool.name);
      this.#served.add(tool.name);
      return true;
    }
    this.#served.delete(tool.name);
    this.#heldBack.set(tool.name, why);
    if (this.filter.pins(this.server)) this.#sayOnce(`${tool.name}\0${why}`, `not serving ${tool.name}: ${why}; review it, then re-pin with: toolrun lock --update ${this.server}`);
    return false;
  }

  /**
   * A pinned name the server has not listed yet this session: its definition now is unknown, so the
   * call is not let through on the name alone (a host lists before it calls; one that pipelines a
   * call behind its list, before the answer, gets this).
   */
  #notListed(name: string): string {
    return `tool '${name}' of '${this.server}' has not been listed in this session, so its definition is not checked against ${this.filter.file} yet; list the tools (tools/list) before calling`;
  }

  #rememberList(id: unknown): void {
    this.#listIds.add(idKey(id));
    if (this.#listIds.size > MAX_LIST_IDS) this.#listIds.delete(this.#listIds.values().next().value!);
  }

  #sayOnce(key: string, message: string): void {
    if (this.#said.has(key)) return;
    this.#said.add(key);
    this.warn(message);
  }
}

const TOOLS_METHOD = Buffer.from('"tools/');
const ESCAPED_SLASH = Buffer.from('\\/');
const ESCAPED_CHARACTER = Buffer.from('\\u');
/** Hosts list a few times a session; a bound keeps a long session's memory flat. */
const MAX_LIST_IDS = 1024;

/**
 * An id as a client matches it: the TypeScript SDK looks a response up by Number(id), so a server
 * answering list 7 with id "7" (or "07") must still be filtered.
 */
function idKey(id: unknown): string {
  const number = typeof id === 'number' || typeof id === 'string' ? Number(id) : Number.NaN;
  return Number.isFinite(number) && (typeof id === 'number' || /\d/.test(id as string)) ? `n${number}` : `s${JSON.stringify(id)}`;
}

function parseJson(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
