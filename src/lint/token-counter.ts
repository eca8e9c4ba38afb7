import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readCacheFile, writeCacheFile } from '../cache/cache-file.js';

/**
 * Token counts with OpenAI's o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o-series), by
 * gpt-tokenizer: pure JavaScript, no dependencies, the encoding's own BPE ranks, so a count is the
 * count OpenAI's tiktoken gives for the same text. Loading the ranks takes ~0.3 s, so counts are
 * kept in the cache by the text's hash: a snapshot linted before loads no tokenizer at all.
 */
export const ENCODING = 'o200k_base';

export type CountTokens = (texts: string[]) => Promise<number[]>;

const CACHE_FILE = 'token-counts.json';
const CACHE_LIMIT_BYTES = 8 << 20;
/** Entries kept: enough for every tool of a few hundred servers; the oldest go first. */
const CACHE_ENTRIES = 50_000;

/** Counts through the cache in `folder` (undefined: no cache, `--no-cache` or an untrusted folder). */
export function tokenCounter(folder: string | undefined): CountTokens {
  return async (texts) => {
    const path = folder && join(folder, CACHE_FILE);
    const cached = path ? readCounts(path) : new Map<string, number>();
    const keys = texts.map(hashText);
    const missing = texts.filter((_, index) => !cached.has(keys[index]!));
    if (missing.length > 0) {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      for (const [index, text] of texts.entries()) if (!cached.has(keys[index]!)) cached.set(keys[index]!, countTokens(text));
      if (path) writeCounts(path, cached);
    }
    return keys.map((key) => cached.get(key)!);
  };
}

function hashText(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

function readCounts(path: string): Map<string, number> {
  const bytes = readCacheFile(path, CACHE_LIMIT_BYTES);
  if (!bytes) return new Map();
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { encoding?: unknown; counts?: unknown };
    if (parsed.encoding !== ENCODING || typeof parsed.counts !== 'object' || parsed.counts === null) return new Map();
    return new Map(Object.entries(parsed.counts as Record<string, unknown>).filter((entry): entry is [string, number] => Number.isSafeInteger(entry[1])));
  } catch {
    return new Map();
  }
}

function writeCounts(path: string, counts: Map<string, number>): void {
  const kept = [...counts].slice(-CACHE_ENTRIES);
  writeCacheFile(path, JSON.stringify({ encoding: ENCODING, counts: Object.fromEntries(kept) }));
}
