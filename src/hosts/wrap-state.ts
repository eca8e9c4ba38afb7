import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readOwnFile } from '../files/read-own-file.js';
import { createFileExclusively, replaceFileAtomically } from '../files/write-file-safely.js';
import { WRAP_LIMIT_BYTES } from './wrap-limit.js';
import type { EntryPlace } from './entry-command.js';
import type { HostName, HostScope } from './host-types.js';

/**
 * What `mcp tap --wrap` leaves beside the host file it edited: the file's bytes before the edit and
 * the entry's text before and after, so `--unwrap` can give them back exactly. One per wrapped
 * entry: several servers of one file can be wrapped and unwrapped in any order.
 */
export interface WrapState {
  toolrun_wrap: 1;
  host: HostName;
  scope: HostScope;
  server: string;
  /** The file edited (links resolved). */
  file: string;
  wrapped_at: string;
  /** The file as --wrap wrote it, hashed: byte for byte that still, it gets `original` back whole. */
  written_sha256: string;
  /** The entry's text before and after the wrap: after another part of the file changed, only the entry is put back. */
  entry_before: string;
  entry_after: string;
  /** The whole file before the wrap (UTF-8: --wrap edits no other file). */
  original: string;
}

/**
 * `<file>.toolrun-wrap-<server>-<hash>` beside the edited file: the server's name made safe for a
 * file name, and a hash of where the entry is (two Claude Code projects may each have an `fs` in
 * ~/.claude.json). No .json or .yaml at the end: Continue reads every such file in its block folder.
 */
export function wrapStatePath(file: string, place: EntryPlace): string {
  const where = createHash('sha256')
    .update(JSON.stringify([...place.keys, place.name]))
    .digest('hex')
    .slice(0, 8);
  return join(dirname(file), `${basename(file)}.toolrun-wrap-${place.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${where}`);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The state at `path`, undefined when there is none; a file there that is not toolrun's state is an Error saying why. */
export function readWrapState(path: string): WrapState | undefined {
  // The original file and two copies of the entry: a little over one host file's limit.
  const read = readOwnFile(path, 4 * WRAP_LIMIT_BYTES);
  if (read === undefined) return undefined;
  if ('problem' in read) throw new Error(`${path}: ${read.problem}`);
  let state: Partial<WrapState>;
  try {
    state = JSON.parse(read.bytes.toString('utf8')) as Partial<WrapState>;
  } catch {
    throw new Error(`${path} is not a backup toolrun wrote (not JSON)`);
  }
  const texts = [state.server, state.file, state.written_sha256, state.entry_before, state.entry_after, state.original];
  if (state.toolrun_wrap !== 1 || texts.some((text) => typeof text !== 'string')) throw new Error(`${path} is not a backup toolrun wrote (fields missing)`);
  return state as WrapState;
}

/** Writes the state: a new file (mode 0600: the original may hold tokens), or over a stale one when `replace`. */
export function writeWrapState(path: string, state: WrapState, replace: boolean): void {
  const bytes = Buffer.from(`${JSON.stringify(state, null, 2)}\n`);
  if (replace) replaceFileAtomically(path, bytes, { exactMode: 0o600, durable: true });
  else createFileExclusively(path, bytes, 0o600);
}

export function removeWrapState(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
