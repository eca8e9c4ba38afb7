/** Keeps the last `limit` bytes written to it: a server's stderr, for error messages. */
export class ByteTail {
  #chunks: Buffer[] = [];
  #size = 0;
  #total = 0;
  constructor(readonly limit = 64 * 1024) {}

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    this.#total += chunk.length;
    while (this.#size - this.#chunks[0]!.length >= this.limit) this.#size -= this.#chunks.shift()!.length;
  }

  /** Everything ever written, in bytes, including what no longer fits. */
  get totalBytes(): number {
    return this.#total;
  }

  text(): string {
    const all = Buffer.concat(this.#chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }

  /** The last `count` non-empty lines. */
  lastLines(count: number): string[] {
    return this.text()
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '')
      .slice(-count);
  }
}
