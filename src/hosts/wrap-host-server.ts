import { realpathSync } from 'node:fs';
import { ConfigError, UsageError } from '../errors.js';
import { readOwnFile } from '../files/read-own-file.js';
import { replaceFileAtomically } from '../files/write-file-safely.js';
import { WRAP_LIMIT_BYTES } from './wrap-limit.js';
import { entryPlaceOf, isTapCommandLine, WrapRefusal, type EntryPlace } from './entry-command.js';
import { foundHostReports, hostPlaces, mergeHostServers } from './host-config.js';
import type { HostName, HostScope } from './host-types.js';
import { readCommandLine, unwrapEntryText, wrapEntryText } from './wrap-entry.js';
import { readWrapState, removeWrapState, sha256, wrapStatePath, writeWrapState, type WrapState } from './wrap-state.js';

/** Which entry: a host (one scope, or all merged as the host merges them) and a server name. */
export interface WrapTarget {
  host: HostName;
  scope?: HostScope;
  server: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** --wrap: replace a stale backup; --unwrap: put the entry back even though it was edited since. */
  force: boolean;
}

export interface WrapOutcome {
  action: 'wrapped' | 'restored';
  host: HostName;
  scope: HostScope;
  server: string;
  /** The host's file, and the file really edited when that is a link. */
  path: string;
  editedPath: string;
  backup: string;
  /** wrapped: the command line the host now runs. */
  command?: string[];
  /** wrapped with --force over an earlier backup. */
  replacedBackup?: boolean;
  /** restored: the whole file as it was (nothing else changed since), or only the entry (other edits kept), or the entry over its own edits (--force). */
  restored?: 'file' | 'entry' | 'entry-over-edits';
}

/** Rewrites the entry to run through `tapPrefix … -- <its command line>` (SPEC §13), after leaving a backup beside the file. */
export async function wrapHostServer(target: WrapTarget, tapPrefix: readonly string[]): Promise<WrapOutcome> {
  const file = await openEntryFile(target);
  const statePath = wrapStatePath(file.editedPath, file.place);
  const stale = readState(statePath);
  const where = `'${target.server}' in ${target.host} (${file.path})`;
  if (isTapCommandLine(refusing(where, 'wrap', () => readCommandLine(file.text, file.place)) ?? []))
    throw new UsageError(`${where} already runs through toolrun mcp tap${stale ? ` (backup at ${statePath}): --unwrap it first` : ''}`);
  if (stale && !target.force)
    throw new UsageError(
      `a backup of an earlier wrap of ${where} is at ${statePath}, but the entry no longer runs through the tap (restored by hand, or rewritten by ${target.host}?): remove that file, or run again with --force to replace it`,
    );
  const wrapped = refusing(where, 'wrap', () => wrapEntryText(file.text, file.place, tapPrefix));
  const written = Buffer.from(file.bom + wrapped.text);
  const state: WrapState = {
    toolrun_wrap: 1,
    host: target.host,
    scope: file.scope,
    server: target.server,
    file: file.editedPath,
    wrapped_at: new Date().toISOString(),
    written_sha256: sha256(written),
    entry_before: wrapped.entryBefore,
    entry_after: wrapped.entryAfter,
    original: file.bom + file.text,
  };
  writeWrapState(statePath, state, stale !== undefined);
  try {
    replaceUnchanged(file, written);
  } catch (error) {
    // The state describes a wrap that did not happen (a stale one it replaced was to go anyway).
    removeWrapState(statePath);
    throw error;
  }
  const command = readCommandLine(wrapped.text, file.place);
  return {
    action: 'wrapped',
    host: target.host,
    scope: file.scope,
    server: target.server,
    path: file.path,
    editedPath: file.editedPath,
    backup: statePath,
    command,
    replacedBackup: stale !== undefined,
  };
}

/** Puts the entry back as it was before --wrap, from the backup beside the file, and removes the backup. */
export async function unwrapHostServer(target: WrapTarget): Promise<WrapOutcome> {
  const file = await openEntryFile(target);
  const statePath = wrapStatePath(file.editedPath, file.place);
  const state = readState(statePath);
  const where = `'${target.server}' in ${target.host} (${file.path})`;
  if (!state || state.server !== target.server || state.file !== file.editedPath) {
    // The host's entry may now come from another file than the one wrapped (a project entry added since).
    const hint = target.scope === undefined ? `; wrapped in another of ${target.host}'s files? Name its scope: --unwrap ${target.host}:user (or :project, :local)` : '';
    throw new UsageError(`${where} is not wrapped by toolrun: no backup at ${statePath}${hint}`);
  }
  let restored: WrapOutcome['restored'] = 'file';
  let bytes = Buffer.from(state.original);
  if (sha256(file.bytes) !== state.written_sha256) {
    const original = state.original.replace(/^\ufeff/, '');
    const result = refusing(where, 'unwrap', () => unwrapEntryText(file.text, file.place, { entryBefore: state.entry_before, entryAfter: state.entry_after, original }, target.force));
    if (result.outcome === 'gone') throw new UsageError(`${where}: the entry is no longer in the file; the file as it was before the wrap is in ${statePath} ("original")`);
    if (result.outcome === 'changed')
      throw new UsageError(
        `${where} was edited since toolrun wrapped it: not restored, the file is unchanged. The entry as it was is in ${statePath} ("entry_before"): put it back by hand, or run again with --force to replace the entry as it is now`,
      );
    restored = result.overEdits ? 'entry-over-edits' : 'entry';
    bytes = Buffer.from(file.bom + result.text);
  }
  replaceUnchanged(file, bytes);
  removeWrapState(statePath);
  return { action: 'restored', host: target.host, scope: file.scope, server: target.server, path: file.path, editedPath: file.editedPath, backup: statePath, restored };
}

interface EntryFile {
  path: string;
  editedPath: string;
  scope: HostScope;
  place: EntryPlace;
  bytes: Buffer;
  /** The text without its byte order mark, which `bom` keeps. */
  text: string;
  bom: string;
}

/** The file the host takes the server's entry from (SPEC §13's precedence, or the scope asked for), read whole. */
async function openEntryFile(target: WrapTarget): Promise<EntryFile> {
  const { host, scope, server } = target;
  const reports = await foundHostReports(hostPlaces(target.env, target.cwd), host, scope);
  const label = `${host}${scope ? `:${scope}` : ''}`;
  const found = mergeHostServers(reports).get(server);
  if (!found) {
    const broken = reports.find((report) => report.problems.length > 0);
    if (broken) throw new ConfigError(`${host} config ${broken.path}: ${broken.problems[0]}`, { file: broken.path });
    const names = [...mergeHostServers(reports).keys()];
    throw new UsageError(`${label} has no server '${server}'${names.length > 0 ? ` (it has: ${names.join(', ')})` : ''}. Run 'toolrun hosts' to see every host's servers.`);
  }
  const { report } = found;
  const editedPath = realpathOrSelf(report.path);
  const read = readOwnFile(editedPath, WRAP_LIMIT_BYTES);
  if (!read || 'problem' in read) throw new ConfigError(`${host} config ${report.path} cannot be edited: ${read ? read.problem : 'it is gone'}`, { file: report.path });
  const decoded = read.bytes.toString('utf8');
  if (!Buffer.from(decoded).equals(read.bytes)) throw new UsageError(`${host} config ${report.path} is not valid UTF-8: toolrun does not edit it`);
  const bom = decoded.startsWith('\ufeff') ? '\ufeff' : '';
  const place = entryPlaceOf(host, report.path, report.scope, report.projectDir, server);
  return { path: report.path, editedPath, scope: report.scope, place, bytes: read.bytes, text: decoded.slice(bom.length), bom };
}

/** Writes `bytes` over the file, unless it changed since it was read (the host may be writing it too): then nothing is written. */
function replaceUnchanged(file: EntryFile, bytes: Buffer): void {
  const now = readOwnFile(file.editedPath, WRAP_LIMIT_BYTES);
  if (!now || 'problem' in now || !now.bytes.equals(file.bytes))
    throw new UsageError(`${file.path} changed while toolrun was editing it (is the host writing it?): nothing was changed; run the command again`);
  try {
    replaceFileAtomically(file.editedPath, bytes, { durable: true });
  } catch (error) {
    throw new ConfigError(`cannot write ${file.editedPath}: ${(error as Error).message}`, { file: file.path, cause: error });
  }
}

/** A WrapRefusal from the text editors as a usage error naming the entry. */
function refusing<T>(where: string, verb: string, edit: () => T): T {
  try {
    return edit();
  } catch (error) {
    if (error instanceof WrapRefusal) throw new UsageError(`cannot ${verb} ${where}: ${error.message}`);
    throw error;
  }
}

function readState(path: string): WrapState | undefined {
  try {
    return readWrapState(path);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}: toolrun leaves it alone; move it away to go on`);
  }
}

/** A host file may be a link (a dotfiles repository): the file it points to is the one edited, in its own folder. */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
