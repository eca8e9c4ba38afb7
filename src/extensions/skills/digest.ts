import { createHash } from 'node:crypto';
import type { SkillResource } from './wire.js';

// Every digest and size judgement of the Skills extension is made here (skills.mdx#integrity-and-verification):
// SHA-256 of the file's raw bytes as `sha256:{64 lowercase hex}`, and a read whose length differs from
// the entry's `size` is "a verification failure equivalent to a digest mismatch" (skills.mdx#resources).

/** `sha256:` and the lowercase hex SHA-256 of `bytes`. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export type DigestVerdict = { ok: true; digest: string } | { ok: false; reason: 'size' | 'digest'; message: string; digest?: string };

/** Whether `bytes` are the file `listed` describes: its size first (no hash needed to fail), then its digest. */
export function checkAgainstEntry(bytes: Uint8Array, listed: SkillResource): DigestVerdict {
  if (bytes.byteLength !== listed.size) return { ok: false, reason: 'size', message: `${bytes.byteLength} bytes read; the entry lists ${listed.size}` };
  const digest = sha256Digest(bytes);
  if (digest !== listed.digest) return { ok: false, reason: 'digest', digest, message: `digest ${digest}; the entry lists ${listed.digest}` };
  return { ok: true, digest };
}
