import { lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolrunError } from '../../errors.js';
import { foreignFolderReason } from '../../files/foreign-folder.js';
import { describeKind, replaceFileAtomically } from '../../files/write-file-safely.js';
import { sortKeysDeep } from '../../snapshot/build-snapshot.js';
import type { CanonicalRequest } from './canonical-request.js';
import type { RecordedResponse } from './recorded-response.js';

/** One cassette file, `<folder>/<case-slug>/<key>.json`: the canonical request beside the answer it got. */
export interface Cassette {
  key: string;
  request: CanonicalRequest;
  response: RecordedResponse;
  /**
   * The recordings that use this cassette (a model label, ` --as HOST` when the tools were presented as
   * a host), sorted: one request may serve two (a host that changes nothing). `--record` of one of
   * them removes it from the cassettes that run did not use, and a cassette left with none is deleted.
   */
  profiles?: string[];
}

const FIX = 're-record it with toolrun eval --record';

/**
 * A case's name as a folder name: lowercase letters (any script), digits and dashes, never empty, at
 * most 80 characters; never a name Windows reserves for a device (con, nul, com1…:
 * https://learn.microsoft.com/windows/win32/fileio/naming-a-file), since cassettes are committed.
 */
export function caseSlug(caseName: string): string {
  const slug = caseName
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  if (slug === '') return 'case';
  return /^(con|prn|aux|nul|com\d|lpt\d)$/.test(slug) ? `${slug}-case` : slug;
}

export function caseFolderOf(folder: string, caseName: string): string {
  return join(folder, caseSlug(caseName));
}

/**
 * The file's bytes: keys sorted, 2-space JSON, a trailing newline, so recording the same answer
 * twice writes the same bytes and a re-record shows in a diff only where the model changed.
 */
export function formatCassette(cassette: Cassette): string {
  return `${JSON.stringify(sortKeysDeep(cassette), null, 2)}\n`;
}

/** The cassette with this key, or undefined when there is none. */
export function readCassette(caseFolder: string, key: string): Cassette | undefined {
  const path = join(caseFolder, `${key}.json`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolrunError('config', `cannot read the cassette ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseCassette(path, text);
}

/** The cassette with this key if it is there and reads as one; anything else is undefined (a recording replaces it). */
export function readCassetteIfValid(caseFolder: string, key: string): Cassette | undefined {
  try {
    return readCassette(caseFolder, key);
  } catch {
    return undefined;
  }
}

/** Every cassette of a case, in file-name order (for the closest match of a miss). */
export function readCaseCassettes(caseFolder: string): Cassette[] {
  let names: string[];
  try {
    names = readdirSync(caseFolder).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.sort().map((name) => parseCassette(join(caseFolder, name), readFileSync(join(caseFolder, name), 'utf8')));
}

/**
 * Writes a cassette whole or not at all (a temporary file renamed over the name), into a folder that
 * is a folder of this user: never through a symbolic link planted at the case's folder or file.
 */
export function writeCassette(caseFolder: string, cassette: Cassette): string {
  const path = join(caseFolder, `${cassette.key}.json`);
  try {
    mkdirSync(caseFolder, { recursive: true });
    const stats = lstatSync(caseFolder);
    if (!stats.isDirectory()) throw new Error(`${caseFolder} is ${describeKind(stats)}, not a folder; remove it`);
    const foreign = foreignFolderReason(caseFolder);
    if (foreign) throw new Error(`${caseFolder}: ${foreign}; record into a folder of your own`);
    replaceFileAtomically(path, Buffer.from(formatCassette(cassette), 'utf8'), { durable: true });
  } catch (error) {
    throw new ToolrunError('tool_error', `cannot write the cassette ${path}: ${(error as Error).message}`, { cause: error });
  }
  return path;
}

function parseCassette(path: string, text: string): Cassette {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ToolrunError('config', `${path} is not valid JSON (${(error as Error).message}); ${FIX}`, { cause: error });
  }
  const cassette = parsed as Partial<Cassette> | null;
  const response = cassette?.response;
  if (
    !cassette ||
    typeof cassette.key !== 'string' ||
    !cassette.request ||
    !response ||
    typeof response.status !== 'number' ||
    typeof response.body !== 'string' ||
    typeof response.headers !== 'object'
  ) {
    throw new ToolrunError('config', `${path} is not a cassette (it needs key, request and response with status, headers and body); ${FIX}`);
  }
  return cassette as Cassette;
}
